/**
 * The one way the server reads a cookie: the `cookie` package's parser on a header of bounded
 * length (a longer header is read as carrying no cookie), so every reader decodes and bounds alike.
 */
import { parse } from 'cookie';
import { CANARY_BUCKET_COOKIE, isCanaryBucket, shopCookieName } from '@shop/shared-kernel/rules';

/** Longer Cookie headers are not parsed (a browser's own stay far below). */
export const MAX_COOKIE_HEADER = 8192;

/** The value of the cookie `name` in a Cookie header; undefined when absent or empty. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header || header.length > MAX_COOKIE_HEADER || !header.includes(`${name}=`)) return undefined;
  return parse(header)[name] || undefined;
}

/**
 * This browser's canary bucket, from the cookie its shell keeps (`__Host-` over https); null before
 * the shell first ran. Pages and rules that must decide as the browser does (canaries, feature
 * switches) read it here.
 */
export function canaryBucketOf(header: string | undefined, https: boolean): number | null {
  const kept = Number(readCookie(header, shopCookieName(CANARY_BUCKET_COOKIE, https)) ?? NaN);
  return isCanaryBucket(kept) ? kept : null;
}
