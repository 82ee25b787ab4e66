/**
 * Answers go out compressed when the client asks (infra/http/compression.ts): br or gzip as its
 * Accept-Encoding prefers, decoding to exactly the plain answer; plain without Accept-Encoding,
 * for small answers and for HEAD; never the server-sent event stream. Real HTTP through node:http
 * (fetch would ask for gzip and decode on its own), against a real database.
 */
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, constants, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compressedPage, compressingStream, preferredEncoding } from '../../src/infra/http/compression.ts';
import { localDirectoryStorage } from '@shop/release';
import { registryEvents } from '../../src/web/registry-events.ts';
import { startTestApi, type TestApi } from '../helpers/test-api.ts';

let api: TestApi;
const originDir = mkdtempSync(join(tmpdir(), 'compression-origin-'));
beforeAll(async () => {
  // The event stream as the shop's server adds it, after buildApi.
  api = await startTestApi({ configure: (app) => registryEvents(app, { storage: localDirectoryStorage(originDir) }) });
});
afterAll(async () => {
  await api?.close();
  rmSync(originDir, { recursive: true, force: true });
});

type Raw = { status: number; headers: Record<string, string | string[] | undefined>; bytes: Buffer };

/** The answer as sent: headers and body bytes, nothing decoded. `firstChunk`: stop after the first bytes (a stream). */
function raw(path: string, headers: Record<string, string>, options: { method?: string; firstChunk?: boolean } = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(`${api.baseUrl}${path}`, { method: options.method ?? 'GET', headers }, (res) => {
      const chunks: Buffer[] = [];
      const done = () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks) });
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        if (options.firstChunk) {
          done();
          req.destroy();
        }
      });
      res.on('end', done);
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const decode = (answer: Raw) => {
  const encoding = answer.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(answer.bytes);
  if (encoding === 'gzip') return gunzipSync(answer.bytes);
  return answer.bytes;
};

describe('compressed answers', () => {
  it('sends a large JSON answer plain when not asked, br or gzip when asked, each decoding to the same JSON', async () => {
    const plain = await raw('/api/home', {});
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.bytes.length).toBeGreaterThan(4096);
    expect(Number(plain.headers['content-length'])).toBe(plain.bytes.length);
    const json = JSON.parse(plain.bytes.toString('utf8'));

    for (const [accept, expected] of [
      ['br', 'br'],
      ['gzip', 'gzip'],
      ['gzip, deflate, br', 'br'],
      ['br;q=0.5, gzip', 'gzip'],
    ] as const) {
      const answer = await raw('/api/home', { 'accept-encoding': accept });
      expect(answer.status, accept).toBe(200);
      expect(answer.headers['content-encoding'], accept).toBe(expected);
      expect(answer.headers.vary, accept).toContain('accept-encoding');
      expect(answer.bytes.length, accept).toBeLessThan(plain.bytes.length / 3);
      expect(JSON.parse(decode(answer).toString('utf8')), accept).toEqual(json);
    }
  });

  it('sends it plain for identity or an encoding it does not offer', async () => {
    for (const accept of ['identity', 'deflate']) {
      const answer = await raw('/api/home', { 'accept-encoding': accept });
      expect(answer.headers['content-encoding'], accept).toBeUndefined();
      expect(JSON.parse(answer.bytes.toString('utf8')).data).toBeDefined();
    }
  });

  it('compresses a cached catalog answer as well as the fresh one', async () => {
    const path = '/api/products?limit=48';
    const fresh = await raw(path, { 'accept-encoding': 'br' });
    const hit = await raw(path, { 'accept-encoding': 'br' });
    expect(hit.headers['x-cache']).toBe('HIT');
    expect(hit.headers['content-encoding']).toBe('br');
    expect(decode(hit).equals(decode(fresh))).toBe(true);
  });

  it('leaves small answers and HEAD answers plain', async () => {
    const small = await raw('/api/health', { 'accept-encoding': 'br, gzip' });
    expect(small.status).toBe(200);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(small.bytes.toString('utf8'))).toBeTruthy();

    const head = await raw('/api/home', { 'accept-encoding': 'br, gzip' }, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers['content-encoding']).toBeUndefined();
    expect(head.bytes.length).toBe(0);
  });

  it('never compresses the server-sent event stream: each event goes out at once, readable', async () => {
    const events = await raw('/builds/events', { 'accept-encoding': 'br, gzip' }, { firstChunk: true });
    expect(events.status).toBe(200);
    expect(events.headers['content-type']).toContain('text/event-stream');
    expect(events.headers['content-encoding']).toBeUndefined();
    expect(events.bytes.toString('utf8')).toContain('retry: 5000');
  });
});

describe('the encoding of a page the server streams itself', () => {
  it('follows Accept-Encoding as the plugin does: br first, q-values, q=0 refuses, * counts', () => {
    expect(preferredEncoding(undefined)).toBeNull();
    expect(preferredEncoding('identity')).toBeNull();
    expect(preferredEncoding('gzip, deflate, br')).toBe('br');
    expect(preferredEncoding('br;q=0.5, gzip')).toBe('gzip');
    expect(preferredEncoding('br;q=0, gzip;q=0')).toBeNull();
    expect(preferredEncoding('*')).toBe('br');
    expect(preferredEncoding('deflate')).toBeNull();
  });

  it('sends what was written so far when flushed, before the stream ends', async () => {
    for (const encoding of ['br', 'gzip', null] as const) {
      const { stream, flush } = compressingStream(encoding);
      const out: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => out.push(chunk));
      stream.write('<head>'.padEnd(4000, 'x'));
      flush();
      // zlib compresses on its thread pool: wait for the flushed bytes (not for the end, which never came).
      for (const deadline = Date.now() + 5_000; out.length === 0 && Date.now() < deadline;)
        await new Promise((resolve) => setTimeout(resolve, 10));
      await new Promise((resolve) => setTimeout(resolve, 20));
      const sent = Buffer.concat(out);
      const head =
        encoding === 'br'
          ? brotliDecompressSync(sent, { finishFlush: constants.BROTLI_OPERATION_FLUSH })
          : encoding === 'gzip'
            ? gunzipSync(sent, { finishFlush: constants.Z_SYNC_FLUSH })
            : sent;
      expect(head.toString(), String(encoding)).toBe('<head>'.padEnd(4000, 'x'));
      stream.end();
    }
  });
});

describe('a rendered page compressed in one piece', () => {
  // A page's size and mix: markup, text with diacritics, and digests that do not compress.
  const page = Array.from(
    { length: 600 },
    (_, index) => `<li data-i="${index}">Tehla Porotherm ${index} – skladom, ${randomBytes(24).toString('base64')}</li>`,
  ).join('');

  it('decodes to exactly the page in either encoding, smaller than the page', () => {
    const br = compressedPage(page, 'br');
    const gzip = compressedPage(Buffer.from(page), 'gzip');
    expect(br && brotliDecompressSync(br).toString()).toBe(page);
    expect(gzip && gunzipSync(gzip).toString()).toBe(page);
    expect(br!.length).toBeLessThan(Buffer.byteLength(page) / 2);
  });

  it('leaves it as it is when the browser takes no encoding, or when it is too small to gain', () => {
    expect(compressedPage(page, null)).toBeNull();
    expect(compressedPage('<p>Ahoj</p>', 'br')).toBeNull();
  });
});
