/**
 * Why an area's code failed to load, told apart by asking for the files again: only a failure
 * another attempt can mend (the address could not be reached, or answered 5xx; or every file is
 * there as signed now, a passing failure) is retried. A file that is not released (404) or whose
 * bytes differ from the signed digest the page's import map names is not: a changed file is
 * contained as it always was, never fetched again from elsewhere as if the network had failed.
 */

/** `network`: worth another attempt; `refused`: the origin does not have it; `tampered`: not the signed bytes. */
export type FailureKind = 'network' | 'refused' | 'tampered';

/** Every http(s) address named in an error and its causes (the runtime names the entry, the browser the module). */
export function addressesIn(error: unknown): string[] {
  const found: string[] = [];
  for (let current: unknown = error, depth = 0; current !== undefined && current !== null && depth < 5; depth += 1) {
    const text = current instanceof Error ? current.message : String(current);
    for (const [url] of text.matchAll(/https?:\/\/[^\s"'`<>()]+/g)) found.push(url.replace(/[.,;:]+$/, ''));
    current = current instanceof Error ? current.cause : undefined;
  }
  return [...new Set(found)];
}

let digests: Map<string, string> | null = null;

/** The signed digest of a script the page's import map names (`sha384-…`), by its absolute address. */
export function signedDigest(url: string): string | null {
  if (!digests) {
    digests = new Map();
    const map = document.querySelector('script[type="importmap"]')?.textContent;
    try {
      const integrity = (map ? (JSON.parse(map) as { integrity?: Record<string, string> }).integrity : undefined) ?? {};
      for (const [key, digest] of Object.entries(integrity)) digests.set(new URL(key, document.baseURI).href, digest);
    } catch {
      // No import map to read (a page served without integrity): nothing to compare with.
    }
  }
  return digests.get(url) ?? null;
}

async function sha384(bytes: ArrayBuffer): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-384', new Uint8Array(bytes)));
  let binary = '';
  for (const byte of digest) binary += String.fromCharCode(byte);
  return `sha384-${btoa(binary)}`;
}

/** What one address answers now: its bytes compared with the digest the import map names for it. */
async function probe(url: string): Promise<FailureKind | 'intact'> {
  let response: Response;
  try {
    // eslint-disable-next-line no-restricted-globals -- a released file's bytes, not the API: asked again only after a failed load
    response = await fetch(url, { cache: 'no-store', credentials: 'omit' });
  } catch {
    return 'network';
  }
  if (response.status >= 500 || response.status === 408 || response.status === 429) return 'network';
  if (!response.ok) return 'refused';
  const expected = signedDigest(url);
  if (!expected) return 'intact';
  return (await sha384(await response.arrayBuffer())) === expected ? 'intact' : 'tampered';
}

/**
 * Why a load from `base` (the area version's folder at the address tried) failed: the addresses the
 * error names under it, then the area's entry, are asked for again.
 */
export async function whyLoadFailed(error: unknown, base: string, entry: string): Promise<FailureKind> {
  const named = addressesIn(error).filter((url) => url.startsWith(base));
  for (const url of [...new Set([...named, entry])]) {
    // A probe that cannot tell counts as a passing failure: every attempt is still checked by the import map.
    const found = await probe(url).catch(() => 'intact' as const);
    if (found !== 'intact') return found;
  }
  return 'network';
}

/** Forgets the import map read (tests). */
export function forgetDigests(): void {
  digests = null;
}
