/**
 * Feature switches per area: a small table the operator (or the area's team) changes without a
 * release. A switch the table does not name is on; one with share 0 is off, 100 on; in between it
 * is on for that share of browsers, chosen with the canary's sticky bucket (0–99, drawn once per
 * browser) so a shopper stays on one side across page loads, and the server (rendering a page,
 * placing an order) decides as the browser does.
 */

/** A switch's name: lower-case letters, digits and dashes, starting with a letter. */
export const FLAG_NAME_PATTERN = '^[a-z][a-z0-9-]{0,39}$';
/** Switches one area may have. */
export const MAX_FLAGS_PER_AREA = 20;

/** The checkout's switches the server enforces too (an order is refused while they are off). */
export const CHECKOUT_FLAGS = { cardPayment: 'card-payment', pickupPoints: 'pickup-points' } as const;

/** Every area's switches in force: area → name → share (0–100, percent of browsers it is on for). */
export type FlagShares = Readonly<Record<string, Readonly<Record<string, number>>>>;

export function isFlagName(name: string): boolean {
  return new RegExp(FLAG_NAME_PATTERN).test(name);
}

export function isFlagShare(share: number): boolean {
  return Number.isInteger(share) && share >= 0 && share <= 100;
}

/**
 * A stable offset per switch (FNV-1a of its area and name), so the browsers a partly-on switch
 * reaches are not always the same ones a canary or another switch reaches.
 */
function offsetOf(area: string, name: string): number {
  let hash = 0x811c9dc5;
  for (const char of `${area}/${name}`) {
    hash ^= char.charCodeAt(0);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % 100;
}

/**
 * Whether a switch is on for a browser of this bucket. An unknown bucket (a first visit, before the
 * shell drew one) counts only a switch fully on.
 */
export function flagOn(flags: FlagShares, area: string, name: string, bucket: number | null): boolean {
  const share = flags[area]?.[name];
  if (share === undefined || share >= 100) return true;
  if (share <= 0 || bucket === null) return false;
  return (bucket + offsetOf(area, name)) % 100 < share;
}
