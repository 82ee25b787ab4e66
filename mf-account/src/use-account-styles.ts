import { injectAreaStyles } from '@shop/shared-kernel';
import css from './account.css?inline';

export function useAccountStyles(): void {
  injectAreaStyles('account', css);
}
