import { useAreaStyles } from '@shop/shared-kernel/react';
import css from './account.css?inline';

export function useAccountStyles(): void {
  useAreaStyles('account', css);
}
