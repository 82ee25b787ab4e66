import { injectAreaStyles } from '@shop/shared-kernel/react';
import css from './content.css?inline';

export function useContentStyles(): void {
  injectAreaStyles('content', css);
}
