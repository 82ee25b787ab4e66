/**
 * Compression of answers (@fastify/compress, registered first in buildApi so that every route
 * gets it, those the shop's server adds afterwards too): the JSON of /api, the HTML pages the
 * server renders (web/shell-host.ts), the registry, the shell's scripts and styles, /api/metrics.
 *
 * - br or gzip, whichever the request's Accept-Encoding prefers (br when both are equally
 *   welcome); none without Accept-Encoding or with `identity`.
 * - Brotli at quality 3 for the API's answers: less CPU than quality 5, and than gzip, for nearly
 *   the same bytes, and at a high answer rate compression is a visible share of the server's time
 *   (figures: tools/bench/results.md). Pages the server renders (compressedPage, and
 *   compressingStream for a page whose head leaves first) keep quality 5: fewer, larger answers,
 *   each byte on a shopper's slow line before the first paint, and once a page is compressed in
 *   one call quality 5 costs little more than 3. Quality 11 would cost far more than it saves.
 * - From 1 KB up: below that the headers and the framing outweigh the saving.
 * - Only compressible types (text, JSON, XML, JavaScript, SVG); never images, PDFs or uploads,
 *   which are compressed already.
 * - An answer that already has a Content-Encoding is left as it is: the shell's and the areas'
 *   built files are compressed once when released (@shop/release's upload-version.ts writes a brotli-11 `.br`
 *   and a gzip-9 `.gz` beside each) and served so (@fastify/static `preCompressed`), smaller than
 *   compressing them here would make them. The areas' static origin serves only such files and
 *   needs no compression of its own.
 * - Server-sent events (GET /builds/events) take the socket over (reply.hijack) and are never
 *   compressed (text/event-stream is excluded too), so each event goes out at once.
 * - Partial content (206, Content-Range) and HEAD answers (no body) are not compressed.
 * - Answers in memory up to 64 KB (every JSON answer of the catalog) are compressed in one call
 *   on the event loop and keep an exact Content-Length; bigger ones and streams go through a
 *   compression stream (chunked, the work off the event loop). The plugin's own bound on two cores
 *   is 8 KB, which sent a listing page through the stream: its hops to zlib's thread pool and back
 *   cost more than compressing the whole answer in one call, which is cheap at this size. A
 *   server-rendered page (60 to 100 KB) is compressed in one call too (compressedPage): through the
 *   stream it cost more than the compression itself.
 *
 * Request bodies are not decompressed: no client of the shop sends compressed bodies, and an
 * upload's size limit then counts the bytes as sent.
 */
import { PassThrough, type Transform } from 'node:stream';
import * as zlib from 'node:zlib';
import { constants, createBrotliCompress, createGzip, type BrotliOptions, type InputType } from 'node:zlib';
import type { FastifyCompressOptions } from '@fastify/compress';

/**
 * Node's zlib, with brotli told each in-memory answer's size: it then sizes its window and tables
 * to the answer instead of for megabytes: a small answer compresses markedly faster, to the same
 * bytes.
 */
const zlibSizingBrotli = {
  ...zlib,
  brotliCompressSync: (payload: InputType, options: BrotliOptions = {}) =>
    zlib.brotliCompressSync(payload, {
      ...options,
      params: {
        ...options.params,
        [constants.BROTLI_PARAM_SIZE_HINT]: typeof payload === 'string' ? Buffer.byteLength(payload) : payload.byteLength,
      },
    }),
};

export const COMPRESSION: FastifyCompressOptions = {
  zlib: zlibSizingBrotli,
  global: true,
  globalDecompression: false,
  encodings: ['br', 'gzip'],
  threshold: 1024,
  syncThreshold: 64 * 1024,
  brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 3 } },
};

/**
 * Brotli for the pages the server renders (see above). A window of 256 KB holds a whole page (some
 * 60 to 100 KB): the default 4 MB one makes each compressor allocate for a page it never gets.
 */
const PAGE_BROTLI = { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_LGWIN]: 18 } };

/**
 * The encoding for an answer the server streams itself (a page whose head leaves ahead of the
 * rest): the same choice as above, br before gzip, none when neither is welcome (q=0 refuses).
 */
export function preferredEncoding(acceptEncoding: string | undefined): 'br' | 'gzip' | null {
  const welcome = new Map<string, number>();
  for (const part of (acceptEncoding ?? '').split(',').slice(0, 20)) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((param) => /^\s*q=([0-9.]+)\s*$/.exec(param)?.[1]).find((value) => value !== undefined);
    if (name) welcome.set(name, q === undefined ? 1 : Number(q) || 0);
  }
  const weight = (name: string) => welcome.get(name) ?? welcome.get('*') ?? 0;
  const best = (COMPRESSION.encodings as ('br' | 'gzip')[]).filter((name) => weight(name) > 0).sort((a, b) => weight(b) - weight(a))[0];
  return best ?? null;
}

/**
 * A compression stream whose `flush()` sends what was written so far: the head of a page leaves
 * at once instead of waiting in the compressor for the rest.
 */
export function compressingStream(encoding: 'br' | 'gzip' | null): { stream: Transform; flush: () => void } {
  if (encoding === null) return { stream: new PassThrough(), flush: () => {} };
  const stream = encoding === 'br' ? createBrotliCompress(PAGE_BROTLI) : createGzip();
  return { stream, flush: () => stream.flush() };
}

/**
 * A whole rendered page compressed in one call on the event loop, told its size (see
 * zlibSizingBrotli): a page is some 60 to 100 KB, where a compression stream's chunking and its hops
 * to zlib's thread pool and back cost more than the compression itself. Null: sent as it is.
 */
export function compressedPage(html: string | Buffer, encoding: 'br' | 'gzip' | null): Buffer | null {
  if (encoding === null) return null;
  const bytes = typeof html === 'string' ? Buffer.from(html) : html;
  if (bytes.byteLength < (COMPRESSION.threshold ?? 0)) return null;
  if (encoding === 'gzip') return zlib.gzipSync(bytes);
  return zlib.brotliCompressSync(bytes, {
    params: { ...PAGE_BROTLI.params, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength },
  });
}
