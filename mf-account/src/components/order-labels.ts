import type { OrderPaymentStatus } from '@shop/shared-kernel';

export const PAYMENT_LABELS: Record<OrderPaymentStatus, string> = {
  pending: 'Čaká na platbu',
  paid: 'Zaplatená',
  cancelled: 'Platba zrušená',
  failed: 'Platba zlyhala',
  on_delivery: 'Platba pri prevzatí',
};
