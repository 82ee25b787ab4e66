import { useAreaStyles } from '@shop/shared-kernel/react';
import css from './content.css?inline';

export function useContentStyles(): void {
  useAreaStyles('content', css);
}
