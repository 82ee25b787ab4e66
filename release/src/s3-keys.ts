/**
 * The S3 storage's keys: which names a caller may use (checked before any request), the names the
 * storage keeps for itself, and the Content-Type (and Content-Encoding) each object is stored with.
 */

/** Marks a folder being uploaded or deleted: `<folder>.s3-storage-incomplete`. */
export const INCOMPLETE = '.s3-storage-incomplete';
/** The storage's own keys (claims, probes), beside the caller's: `<prefix>/.s3-storage/…`. */
export const INTERNAL = '.s3-storage';
/** No key of the caller's may contain it (markers and internal keys do). */
export const RESERVED = INTERNAL;
const MAX_KEY_BYTES = 900;

const CONTENT_TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  mjs: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  html: 'text/html; charset=utf-8',
  json: 'application/json; charset=utf-8',
  map: 'application/json; charset=utf-8',
  jsonl: 'application/x-ndjson; charset=utf-8',
  webmanifest: 'application/manifest+json; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
  xml: 'application/xml; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  ico: 'image/x-icon',
  woff: 'font/woff',
  woff2: 'font/woff2',
  ttf: 'font/ttf',
  otf: 'font/otf',
  wasm: 'application/wasm',
  lock: 'application/json; charset=utf-8',
};

/**
 * Content-Type (and Content-Encoding of a precompressed sibling: `page.js.br`
 * is JavaScript in brotli) by a key's extension.
 */
export function contentHeaders(key: string): { ContentType: string; ContentEncoding?: string } {
  const name = key.slice(key.lastIndexOf('/') + 1);
  const encoding = name.endsWith('.br') ? 'br' : name.endsWith('.gz') ? 'gzip' : undefined;
  const base = encoding ? name.slice(0, name.lastIndexOf('.')) : name;
  const dot = base.lastIndexOf('.');
  const type = (dot > 0 ? CONTENT_TYPES[base.slice(dot + 1).toLowerCase()] : undefined) ?? 'application/octet-stream';
  return encoding ? { ContentType: type, ContentEncoding: encoding } : { ContentType: type };
}

/** Throws unless `key` is a plain relative key: segments of printable characters, no `..`, nothing reserved. */
export function assertKey(key: string): void {
  const problem =
    typeof key !== 'string' || key === ''
      ? 'is empty'
      : Buffer.byteLength(key) > MAX_KEY_BYTES
        ? `is longer than ${MAX_KEY_BYTES} bytes`
        : key.startsWith('/')
          ? 'starts with /'
          : key.includes('..')
            ? 'contains ..'
            : key.includes('\\')
              ? 'contains a backslash'
              : [...key].some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f)
                ? 'contains a control character'
                : key.split('/').some((segment) => segment === '' || segment === '.')
                  ? 'has an empty or "." segment'
                  : key.includes(RESERVED)
                    ? `names ${RESERVED}, which the storage reserves`
                    : null;
  if (problem) throw new Error(`Release storage key ${JSON.stringify(String(key).slice(0, 100))} ${problem}.`);
}
