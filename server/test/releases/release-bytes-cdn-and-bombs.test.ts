/**
 * Compressed bytes as someone who can write the CDN or the origin would try them: a copy changed
 * only where browsers load it (the CDN) is found by the watch's read-back, a brotli answer that
 * would unpack past the signed size refused unpacked; a decompression bomb beside a small file is
 * refused by the origin and found by the watch, never unpacked past the signed size; a pipe where a
 * compressed copy belongs is refused and stalls neither the origin nor the watch. On the local
 * directory; its subject is HTTP and files, so the PostgreSQL pass leaves it out (vitest.config.ts).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { constants, createBrotliCompress } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPRESSED_COPIES, UNREADABLE_COPY, readRegistry } from '@shop/release';
import { releasedOrigins } from '../helpers/released-origins.ts';

const bytes = releasedOrigins(['local']);
const { origins, watchOf, servedFile, get, findings, counted } = bytes;

beforeAll(async () => {
  await bytes.start();
});
afterAll(bytes.stop);

/** A brotli stream that unpacks to `megabytes` MB of zeros, itself a few hundred bytes. */
async function brotliBomb(megabytes: number): Promise<Buffer> {
  const packer = createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_LGWIN]: 24 } });
  const chunks: Buffer[] = [];
  packer.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise((resolve) => packer.on('end', resolve));
  const zeros = Buffer.alloc(1 << 20);
  for (let index = 0; index < megabytes; index += 1)
    if (!packer.write(zeros)) await new Promise((resolve) => packer.once('drain', resolve));
  packer.end();
  await ended;
  return Buffer.concat(chunks);
}

describe('what the CDN sends', () => {
  it('is read back: a changed copy only the CDN serves is found (and a brotli answer that would unpack past the size is refused unpacked), the origin intact', async () => {
    const origin = origins.local!;
    const folder = origin.storage.localPath(`remotes/checkout/${origin.checkout}`);
    const changed = readFileSync(join(folder, 'assets', 'page.js'), 'utf8').replace('export default', 'export evil   ');
    const bomb = await brotliBomb(64);
    // A CDN standing in for ASSET_ORIGIN: the origin's files, but one changed in its cache and one answered with a bomb.
    const cdn: Server = createServer((request, response) => {
      const file = (request.url ?? '').replace(`/remotes/checkout/${origin.checkout}/`, '');
      const encoding = String(request.headers['accept-encoding'] ?? '');
      if (file === 'assets/page.js' && encoding === 'identity') return response.end(changed);
      if (file === 'remoteEntry.js' && encoding === 'br') return response.writeHead(200, { 'content-encoding': 'br' }).end(bomb);
      const suffix = encoding === 'br' ? '.br' : encoding === 'gzip' ? '.gz' : '';
      const copy = suffix ? readOrNull(join(folder, `${file}${suffix}`)) : null;
      if (copy) return response.writeHead(200, { 'content-encoding': encoding }).end(copy);
      const plain = readOrNull(join(folder, file));
      if (!plain) return response.writeHead(404).end();
      response.end(plain);
    });
    await new Promise<void>((resolve) => cdn.listen(0, '127.0.0.1', resolve));
    const cdnUrl = `http://127.0.0.1:${(cdn.address() as { port: number }).port}`;
    const watch = watchOf(origin.storage, origin.check, { assetOrigin: cdnUrl, shopUrl: null });
    try {
      const before = await counted('cdn');
      const rss = process.memoryUsage().rss;
      await watch.checkNow();
      // The 64 MB the bomb unpacks to were never made.
      expect(process.memoryUsage().rss - rss).toBeLessThan(48 << 20);
      const cdnFindings = (await findings()).filter((row) => row.kind === 'cdn' && row.version === origin.checkout);
      expect(cdnFindings.map((row) => row.subject).sort()).toEqual(['assets/page.js', 'remoteEntry.js (br)']);
      expect(cdnFindings.find((row) => row.subject === 'remoteEntry.js (br)')?.actual).toBe(UNREADABLE_COPY);
      expect(await counted('cdn')).toBeGreaterThanOrEqual(before + 2);
      // The origin's own copy is intact and still sent.
      expect((await get(origin, 'assets/page.js')).statusCode).toBe(200);
    } finally {
      watch.stop();
      await new Promise((resolve) => cdn.close(resolve));
    }
  });
});

const readOrNull = (path: string) => {
  try {
    return readFileSync(path);
  } catch {
    return null;
  }
};

describe('a decompression bomb beside a small file', () => {
  it('is refused by the origin and found by the watch, never unpacked past the signed size', async () => {
    const origin = origins.local!;
    // remoteEntry.js is too small for the release to keep a copy of it: the bomb is planted beside it.
    const bombPath = servedFile(origin, 'remoteEntry.js.br');
    const signedSize = statSync(servedFile(origin, 'remoteEntry.js')).size;
    const bomb = await brotliBomb(128);
    expect(bomb.length).toBeLessThan(signedSize + 4096);
    const unpackBrotli = COMPRESSED_COPIES.find(([suffix]) => suffix === '.br')![1];
    await expect(unpackBrotli(bomb, signedSize)).rejects.toMatchObject({ code: 'ERR_BUFFER_TOO_LARGE' });
    writeFileSync(bombPath, bomb);
    try {
      const rss = process.memoryUsage().rss;
      const answer = await get(origin, 'remoteEntry.js', 'br');
      expect(answer.statusCode).toBe(404);
      expect((await get(origin, 'remoteEntry.js.br')).statusCode).toBe(404);
      await origin.watch.checkNow();
      expect(process.memoryUsage().rss - rss).toBeLessThan(64 << 20);
      expect(await findings()).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ version: origin.checkout, subject: 'remoteEntry.js.br', kind: 'file', actual: UNREADABLE_COPY }),
        ]),
      );
    } finally {
      rmSync(bombPath, { force: true });
    }
    await origin.watch.checkNow();
    expect((await get(origin, 'remoteEntry.js', 'br')).statusCode).toBe(200);
    expect((await readRegistry(origin.storage)).areas.checkout?.version).toBe(origin.checkout);
  });
  it('a pipe where a compressed copy belongs is refused, and neither the origin nor the watch waits on it', async () => {
    const origin = origins.local!;
    const pipe = servedFile(origin, 'remoteEntry.js.gz');
    const made = spawnSync('mkfifo', [pipe]);
    expect(made.status, String(made.stderr)).toBe(0);
    try {
      expect((await get(origin, 'remoteEntry.js', 'gzip')).statusCode).toBe(404);
      await origin.watch.checkNow();
    } finally {
      rmSync(pipe, { force: true });
    }
    expect((await get(origin, 'remoteEntry.js', 'gzip')).statusCode).toBe(200);
  });
});
