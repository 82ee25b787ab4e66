/**
 * This browser's canary bucket: a random whole number 0–99 drawn once and
 * kept, so a shopper stays on the same side of every canary across page loads.
 * It identifies no one (no cookie, never sent to the server).
 */
const KEY = 'shop:canary-bucket';

export function canaryBucket(storage: Pick<Storage, 'getItem' | 'setItem'> | null = safeLocalStorage(), random = Math.random): number {
  const kept = Number(storage?.getItem(KEY) ?? NaN);
  if (Number.isInteger(kept) && kept >= 0 && kept < 100) return kept;
  const drawn = Math.floor(random() * 100);
  try {
    storage?.setItem(KEY, String(drawn));
  } catch {
    // Storage full or blocked: this page load still gets a bucket.
  }
  return drawn;
}

function safeLocalStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}
