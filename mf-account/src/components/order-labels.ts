import type { SlovakForms } from '@shop/shared-kernel/rules';
import type { OrderPaymentStatus } from '@shop/shared-kernel/contract';

export const PAYMENT_LABELS: Record<OrderPaymentStatus, string> = {
  pending: 'Čaká na platbu',
  paid: 'Zaplatená',
  cancelled: 'Platba zrušená',
  failed: 'Platba zlyhala',
  on_delivery: 'Platba pri prevzatí',
};

/** "1 položka", "3 položky", "5 položiek" (with the kernel's countSk). */
export const ITEM_FORMS: SlovakForms = { one: 'položka', few: 'položky', other: 'položiek' };
