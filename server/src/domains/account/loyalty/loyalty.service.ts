import type { LoyaltyPoints } from '@shop/shared-kernel/contract';
import type { LoyaltyRepository } from './loyalty.repository.ts';

/** The rule: one point for every whole euro of paid orders (the total with VAT). */
export const POINTS_PER_EURO = 1;

export class LoyaltyService {
  constructor(private readonly repo: LoyaltyRepository) {}

  async points(userId: number): Promise<LoyaltyPoints> {
    const paid = await this.repo.paidOrders(userId);
    return {
      points: Math.floor(paid.total / 1000) * POINTS_PER_EURO,
      paidOrders: paid.count,
      paidTotal: paid.total,
      pointsPerEuro: POINTS_PER_EURO,
    };
  }
}
