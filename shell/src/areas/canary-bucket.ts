/**
 * This browser's canary bucket: a random whole number 0–99 drawn once and
 * kept, so a shopper stays on the same side of every canary across page loads.
 * It identifies no one (one of 100 values). A technical cookie carries it to the
 * server, which renders a page's first view with the same versions the browser loads.
 */
import { CANARY_BUCKET_COOKIE, isCanaryBucket, shopCookieName } from '@shop/shared-kernel/rules';

const KEY = 'shop:canary-bucket';

export function canaryBucket(
  storage: Pick<Storage, 'getItem' | 'setItem'> | null = safeLocalStorage(),
  random = Math.random,
  cookies: string = typeof document === 'undefined' ? '' : document.cookie,
  https: boolean = typeof location !== 'undefined' && location.protocol === 'https:',
): number {
  const name = shopCookieName(CANARY_BUCKET_COOKIE, https);
  // This browser's storage decides; the cookie mirrors it, so the server renders the same side next time.
  const kept = Number(storage?.getItem(KEY) ?? NaN);
  const mirrored = Number(new RegExp(`(?:^|;\\s*)${name}=(\\d+)`).exec(cookies)?.[1] ?? NaN);
  const drawn = isCanaryBucket(kept) ? kept : isCanaryBucket(mirrored) ? mirrored : Math.floor(random() * 100);
  try {
    if (drawn !== kept) storage?.setItem(KEY, String(drawn));
  } catch {
    // Storage full or blocked: this page load still gets a bucket.
  }
  if (typeof document !== 'undefined') {
    document.cookie = `${name}=${drawn}; Path=/; Max-Age=31536000; SameSite=Lax${https ? '; Secure' : ''}`;
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
