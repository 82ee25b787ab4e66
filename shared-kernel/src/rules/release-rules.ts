/**
 * Which versions of the areas a page load uses: the ones in force, or a canary for the share of
 * shoppers whose bucket (0–99, drawn once per browser) falls under the canary's share. The shop's
 * server renders with the same choice the browser then loads (the bucket rides in a cookie).
 */

/** The cookie that carries this browser's canary bucket to the server (identifies no one). */
export const CANARY_BUCKET_COOKIE = 'shop_canary';

/**
 * A cookie's name as the shop writes it: `__Host-` over https (the browser then refuses one of that
 * name from any other host, and requires Secure and Path=/), the plain name over http (`npm start`).
 */
export function shopCookieName(name: string, https: boolean): string {
  return https ? `__Host-${name}` : name;
}

export function isCanaryBucket(value: number): boolean {
  return Number.isInteger(value) && value >= 0 && value < 100;
}

export function chooseReleases<Name extends string, Release>(
  registry: { areas: Partial<Record<Name, Release>>; canaries?: Partial<Record<Name, Release & { share: number }>> },
  bucket: number,
): Partial<Record<Name, Release>> {
  const chosen: Partial<Record<Name, Release>> = { ...registry.areas };
  for (const [area, canary] of Object.entries(registry.canaries ?? {}) as [Name, Release & { share: number }][]) {
    if (bucket < canary.share) chosen[area] = canary;
  }
  return chosen;
}
