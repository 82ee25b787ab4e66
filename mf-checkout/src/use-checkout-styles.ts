import { useAreaStyles } from '@shop/shared-kernel/react';
import css from './checkout.css?inline';

export function useCheckoutStyles(): void {
  useAreaStyles('checkout', css);
}
