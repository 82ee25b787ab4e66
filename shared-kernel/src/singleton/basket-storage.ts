/**
 * The basket in browser storage (requirements R3.9, R5.2, R9.7): key cartData,
 * shape { value: BasketLine[], expires: epoch ms }, kept for 30 days.
 */
import type { BasketLine } from '../contract/index.ts';

export const BASKET_STORAGE_KEY = 'cartData';
export const BASKET_TTL_MS = 30 * 24 * 60 * 60 * 1000;

type StoredBasket = { value: BasketLine[]; expires: number };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A stored line is usable when its id, amount and variant data look right. */
function isBasketLine(value: unknown): value is BasketLine {
  if (!isRecord(value)) return false;
  return (
    typeof value.v_id === 'number' &&
    typeof value.amount === 'number' &&
    Number.isFinite(value.amount) &&
    value.amount > 0 &&
    isRecord(value.variantData)
  );
}

/**
 * The stored basket lines. Returns [] when nothing is stored, when `value`
 * is not a list, or when `expires` is missing or in the past; lines that are
 * not line-shaped are dropped. Unparseable JSON is removed from storage.
 */
export function readStoredBasket(storage: Storage, now: number = Date.now()): BasketLine[] {
  let raw: string | null;
  try {
    raw = storage.getItem(BASKET_STORAGE_KEY);
  } catch {
    return [];
  }
  if (raw === null) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    try {
      storage.removeItem(BASKET_STORAGE_KEY);
    } catch {
      // storage refused: nothing more to do
    }
    return [];
  }
  if (!isRecord(parsed) || !Array.isArray(parsed.value)) return [];
  if (typeof parsed.expires !== 'number' || parsed.expires < now) return [];
  return parsed.value.filter(isBasketLine).map((line) => ({
    ...line,
    isComponent: line.isComponent === true,
    isRequired: line.isRequired === true,
  }));
}

/** Stores the lines for 30 days from `now`. Storage errors (quota) are ignored. */
export function writeStoredBasket(storage: Storage, lines: readonly BasketLine[], now: number = Date.now()): void {
  const stored: StoredBasket = { value: [...lines], expires: now + BASKET_TTL_MS };
  try {
    storage.setItem(BASKET_STORAGE_KEY, JSON.stringify(stored));
  } catch {
    // quota exceeded or storage disabled: the basket lives in memory only
  }
}
