/**
 * The one way the server reads a cookie: the `cookie` package's parser on a header of bounded
 * length (a longer header is read as carrying no cookie), so every reader decodes and bounds alike.
 */
import { parse } from 'cookie';

/** Longer Cookie headers are not parsed (a browser's own stay far below). */
export const MAX_COOKIE_HEADER = 8192;

/** The value of the cookie `name` in a Cookie header; undefined when absent or empty. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header || header.length > MAX_COOKIE_HEADER || !header.includes(`${name}=`)) return undefined;
  return parse(header)[name] || undefined;
}
