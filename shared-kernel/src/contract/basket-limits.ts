/**
 * What one order may hold: pieces of one line, pieces in all, distinct lines (larger orders go
 * through the shop). Without TypeBox: the basket's cookie rule (rules/basket-cookie.ts) bundles it
 * into every part, the call schemas carry it.
 */
export const BASKET_LIMITS = { lineAmount: 10_000, totalAmount: 50_000, lines: 100 } as const;
