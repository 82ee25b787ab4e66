/**
 * Tamper checks on the bytes, as someone who can write the origin (or the CDN) would try them: a
 * released file changed in place with its size and modification time kept, a repaired one put
 * back with its old time (`cp -p`), a copy changed only where browsers load it (a CDN), another
 * spelling of a released file's path, a decompression bomb beside a small file. The origin sends
 * none of it, and the integrity watch finds each on its next check: recorded, counted, on /ops.
 * On the local directory and on S3 (s3rver, the server's copy of a version on its disk); SQLite
 * and PostgreSQL (DATABASE_URL).
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { constants, createBrotliCompress } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  COMPRESSED_COPIES,
  UNREADABLE_COPY,
  deploy,
  generateSigningKey,
  localDirectoryStorage,
  readRegistry,
  readSigningKey,
  releaseIntegrity,
  type ReleaseStorage,
} from '@shop/release';
import { errorHandler } from '../src/infra/http/error-handler.ts';
import { integrityFindings } from '../src/domains/releases/integrity-findings.repository.ts';
import { startIntegrityWatch, type IntegrityWatch } from '../src/domains/releases/integrity-watch.ts';
import type { ServedOrigins } from '../src/domains/releases/cdn-check.ts';
import { registerShopKey, releaseKeys } from '../src/domains/releases/release-keys.repository.ts';
import { shellHost } from '../src/web/shell-host.ts';
import { buildStaticOrigin, releasedFilesOnShopOrigin } from '../src/web/static-origin.ts';
import { releasedFileCheck, type ReleasedFileCheck } from '../src/web/verified-files.ts';
import { fakeAreaBuild, fakeShellBuild } from './helpers/fake-builds.ts';
import { startS3Server, type S3TestServer } from './helpers/s3-server.ts';
import { startTestApi, type TestApi } from './helpers/test-api.ts';
import { nonCanonical, rawGet } from './helpers/path-spellings.ts';

const shopKey = readSigningKey(generateSigningKey().privateKeyPem);
const cartRoute = { name: 'checkout-cart', path: '/checkout/cart', module: './CartPage', layout: 'checkout' };
/** The origin's own kept verdicts wait this long after a file's last change (verified-files.ts), and a little more. */
const SETTLED_MS = 2_100;
const quiet = Fastify().log;

let api: TestApi;
let s3: S3TestServer;
const scratch = mkdtempSync(join(tmpdir(), 'release-bytes-'));

type Origin = {
  storage: ReleaseStorage;
  /** The checkout version in force. */
  checkout: string;
  shell: string;
  server: FastifyInstance;
  check: ReleasedFileCheck;
  watch: IntegrityWatch;
};
const origins: Partial<Record<'local' | 's3', Origin>> = {};

const trustedKeys = () => releaseKeys(api.db).trusted();

async function prepare(storage: ReleaseStorage, served?: ServedOrigins): Promise<Origin> {
  const provenance = { who: 'seed' };
  // Long enough for the release to keep brotli and gzip copies of the page chunk; the entry is too small for any.
  const distDir = fakeAreaBuild('checkout', { marker: `bytes-${Math.random()}`, routes: [cartRoute], pageBytes: 80 });
  const checkout = (
    await deploy({ storage, part: 'checkout', distDir, packageVersion: '1.0.0', provenance, init: true, signingKey: shopKey })
  ).version;
  const shell = (
    await deploy({ storage, part: 'shell', distDir: fakeShellBuild(), packageVersion: '1.0.0', provenance, signingKey: shopKey })
  ).version;
  const integrity = releaseIntegrity({ storage, keys: trustedKeys });
  const check = releasedFileCheck(integrity, () => undefined);
  const server = await buildStaticOrigin({ storage, logger: quiet, check });
  return { storage, checkout, shell, server, check, watch: watchOf(storage, check, served) };
}

/** The watch as server.ts starts it, told what it reads on this disk; only alerts, so the tests' versions stay in force. */
function watchOf(storage: ReleaseStorage, check: ReleasedFileCheck, served?: ServedOrigins): IntegrityWatch {
  return startIntegrityWatch({
    storage,
    integrity: releaseIntegrity({ storage, keys: trustedKeys }),
    findings: integrityFindings(api.db),
    policy: { intervalMs: 60_000, action: 'alert' },
    log: quiet,
    checkoutPageUrl: null,
    scheduled: false,
    localFiles: check,
    ...(served ? { served } : {}),
  });
}

beforeAll(async () => {
  api = await startTestApi();
  await registerShopKey(releaseKeys(api.db), shopKey);
  s3 = await startS3Server();
  origins.local = await prepare(localDirectoryStorage(join(scratch, 'origin')));
  origins.s3 = await prepare(s3.storage());
});
afterAll(async () => {
  for (const origin of Object.values(origins)) {
    origin.watch.stop();
    await origin.server.close();
  }
  await s3?.stop();
  await api?.close();
  rmSync(scratch, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** The local file the origin sends `file` of the checkout version from (on S3: the server's copy on its disk). */
const servedFile = (origin: Origin, file: string) => join(origin.storage.localPath(`remotes/checkout/${origin.checkout}`), file);
/** Waits until the file's last change is old enough for the origin to keep its verdict. */
async function settled(path: string) {
  await sleep(Math.max(0, statSync(path).ctimeMs + SETTLED_MS - Date.now()));
}
const get = (origin: Origin, file: string, encoding = 'identity') =>
  origin.server.inject({ url: `/remotes/checkout/${origin.checkout}/${file}`, headers: { 'accept-encoding': encoding } });
const findings = () => integrityFindings(api.db).recent(100);
async function counted(kind: string): Promise<number> {
  const metrics = (await api.metrics()).text;
  return Number(
    new RegExp(`^shop_release_integrity_findings_total\\{part="checkout",kind="${kind}"\\} (\\d+)$`, 'm').exec(metrics)?.[1] ?? 0,
  );
}

/** Changes one word of a file in place (same length, same inode) and sets its times back: its size and modification time are as before. */
function tamperKeepingMetadata(path: string, from: string, to: string) {
  expect(to.length).toBe(from.length);
  const before = statSync(path);
  const text = readFileSync(path, 'utf8');
  expect(text).toContain(from);
  writeFileSync(path, text.replace(from, to));
  utimesSync(path, before.atime, before.mtime);
  const after = statSync(path);
  expect([after.size, after.mtimeMs, after.ino]).toEqual([before.size, before.mtimeMs, before.ino]);
}

/**
 * Sets a file's times to a whole second, as a release could have left them: set back later with
 * `utimes`, they are then exactly what they were (a `Date` carries no more than milliseconds).
 */
function wholeSecondTimes(path: string) {
  const seconds = Math.floor(statSync(path).mtimeMs / 1000);
  utimesSync(path, seconds, seconds);
}

/** `cp -p`: a copy with the source's modification time, kept aside for the repair. */
function copyKeepingTime(from: string, to: string) {
  const info = statSync(from);
  copyFileSync(from, to);
  utimesSync(to, info.atime, info.mtime);
}

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

describe.each(['local', 's3'] as const)('a released file on the %s origin', (name) => {
  it('changed in place with its size and modification time kept is refused at once and found by the next check; put back with its old time (cp -p), it is sent again', async () => {
    const origin = origins[name]!;
    const entry = 'remoteEntry.js';
    expect((await get(origin, entry)).statusCode).toBe(200);
    const path = servedFile(origin, entry);
    wholeSecondTimes(path);
    // The origin has hashed the file and keeps its verdict: an origin writer tampers after that.
    await settled(path);
    const intact = await get(origin, entry);
    expect(intact.statusCode).toBe(200);
    const backup = join(scratch, `${name}-${entry}`);
    copyKeepingTime(path, backup);
    tamperKeepingMetadata(path, '"checkout"', '"evil-co"!');
    try {
      // Refused from the next request on: within one check interval, and before any check.
      const refused = await get(origin, entry);
      expect(refused.statusCode).toBe(404);
      expect(refused.json()).toEqual({ error: { code: 'not_found', message: 'Súbor sa nezhoduje s podpísaným vydaním.' } });
      expect(refused.body).not.toContain('evil');

      // The watch's next check reads every byte: found, recorded and counted, whatever the file's metadata says.
      const kind = name === 'local' ? 'file' : 'cache';
      const before = await counted(kind);
      await origin.watch.checkNow();
      expect(await findings()).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            part: 'checkout',
            version: origin.checkout,
            subject: entry,
            kind,
            actual: expect.stringMatching(/^sha384-/),
          }),
        ]),
      );
      expect(await counted(kind)).toBeGreaterThanOrEqual(before + 1);
      expect((await get(origin, entry)).statusCode).toBe(404);
    } finally {
      // Put back from the backup with its old modification time, as `cp -p` or `rsync -a` would.
      copyKeepingTime(backup, path);
    }
    expect(statSync(path).mtimeMs).toBe(statSync(backup).mtimeMs);
    await origin.watch.checkNow();
    const repaired = await get(origin, entry);
    expect(repaired.statusCode).toBe(200);
    expect(repaired.body).toBe(intact.body);
  });

  it("found changed by the watch is refused at once even while the origin's kept verdict says intact, and sent again after a clean check", async () => {
    const origin = origins[name]!;
    const chunk = 'assets/page.js';
    expect((await get(origin, chunk)).statusCode).toBe(200);
    await settled(servedFile(origin, chunk));
    expect((await get(origin, chunk, 'br')).statusCode).toBe(200);
    // What the watch found on this disk overrides what the origin remembers.
    origin.check.watched(origin.storage.localPath(`remotes/checkout/${origin.checkout}`), [chunk]);
    expect((await get(origin, chunk)).statusCode).toBe(404);
    expect((await get(origin, chunk, 'br')).statusCode).toBe(404);
    await origin.watch.checkNow();
    expect((await get(origin, chunk)).statusCode).toBe(200);
    expect((await get(origin, chunk, 'br')).headers['content-encoding']).toBe('br');
  });

  it('asked for by any other spelling of its path answers 404 in the error shape, changed or not', async () => {
    const origin = origins[name]!;
    const listening = await buildStaticOrigin({ storage: origin.storage, logger: quiet, check: origin.check });
    const base = await listening.listen({ port: 0, host: '127.0.0.1' });
    try {
      const spellings = nonCanonical(origin.checkout, origin.shell);
      const canonical = `/remotes/checkout/${origin.checkout}/remoteEntry.js`;
      expect((await rawGet(base, canonical)).status).toBe(200);
      await expectAllRefused(base, spellings);
      // Changed on the origin: refused by its one spelling, and by every other.
      const path = servedFile(origin, 'remoteEntry.js');
      const backup = join(scratch, `${name}-spellings`);
      copyKeepingTime(path, backup);
      tamperKeepingMetadata(path, '"checkout"', '"evil-co"!');
      try {
        expect((await rawGet(base, canonical)).status).toBe(404);
        await expectAllRefused(base, spellings);
      } finally {
        copyKeepingTime(backup, path);
      }
      expect((await rawGet(base, canonical)).status).toBe(200);
    } finally {
      await listening.close();
    }
  });
});

describe('a bucket object changed in place, its ETag, size and time kept', () => {
  it('is found by the next check (it reads the bytes, not the metadata), while the origin keeps sending its intact copy', async () => {
    const origin = origins.s3!;
    const key = `remotes/checkout/${origin.checkout}/assets/page.js`;
    expect((await get(origin, 'assets/page.js')).statusCode).toBe(200);
    const objectFile = s3.objectFile(origin.storage.location(key).replace(`s3://${s3.bucket}/`, ''));
    wholeSecondTimes(objectFile);
    const stamp = await origin.storage.stamp(key);
    const backup = join(scratch, 'bucket-page.js');
    copyKeepingTime(objectFile, backup);
    tamperKeepingMetadata(objectFile, 'export default', 'export  evil  ');
    try {
      expect(await origin.storage.stamp(key)).toBe(stamp);
      await origin.watch.checkNow();
      expect(await findings()).toEqual(
        expect.arrayContaining([expect.objectContaining({ version: origin.checkout, subject: 'assets/page.js', kind: 'file' })]),
      );
      expect((await get(origin, 'assets/page.js')).statusCode).toBe(200);
    } finally {
      copyKeepingTime(backup, objectFile);
    }
  });
});

async function expectAllRefused(base: string, paths: string[]) {
  for (const path of paths) {
    const answer = await rawGet(base, path);
    expect(answer.status, path).toBe(404);
    const body = JSON.parse(answer.body) as { error: { code: string; message: string } };
    expect(body.error.code, path).toBe('not_found');
    expect(body.error.message, path).toMatch(/^(Súbor|Požadovaná adresa)/);
    expect(answer.headers['cache-control'], path).toBe('no-store');
  }
}

describe("the shop's own server", () => {
  it('sends no released file by a /remotes/… or /shells/… path in any spelling: 404 in the error shape', async () => {
    const origin = origins.local!;
    const app = Fastify();
    app.setErrorHandler(errorHandler);
    await app.register(shellHost, {
      storage: origin.storage,
      assetOrigin: 'https://cdn.example',
      gtmId: null,
      registryPollMs: 60_000,
      telemetrySample: 1,
      publicUrl: 'https://shop.example',
      integrity: releaseIntegrity({ storage: origin.storage, keys: trustedKeys }),
      pageCacheMs: 0,
      serverRender: false,
      check: origin.check,
    });
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const paths = [
        `/remotes/checkout/${origin.checkout}/remoteEntry.js`,
        ...nonCanonical(origin.checkout, origin.shell).filter((path) => /^\/(remotes|shells)(\/|\\|$)/i.test(path)),
        `/shells/shell/${origin.shell}/index.html`,
      ];
      for (const path of paths) {
        const answer = await rawGet(base, path);
        expect(answer.status, path).toBe(404);
        expect((JSON.parse(answer.body) as { error: { code: string } }).error.code, path).toBe('not_found');
      }
    } finally {
      await app.close();
    }
  });
});

describe("the shop's own origin as the areas' fallback", () => {
  it('sends a released file by its canonical path only, with the signed bytes, and refuses a changed one and every other spelling', async () => {
    const origin = origins.local!;
    const app = Fastify();
    app.setErrorHandler(errorHandler);
    await releasedFilesOnShopOrigin(app, { storage: origin.storage, check: origin.check });
    await app.register(shellHost, {
      storage: origin.storage,
      assetOrigin: 'https://cdn.example',
      gtmId: null,
      registryPollMs: 60_000,
      telemetrySample: 1,
      publicUrl: 'https://shop.example',
      integrity: releaseIntegrity({ storage: origin.storage, keys: trustedKeys }),
      pageCacheMs: 0,
      serverRender: false,
      check: origin.check,
    });
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const canonical = `/remotes/checkout/${origin.checkout}/remoteEntry.js`;
      const sent = await rawGet(base, canonical);
      expect(sent.status).toBe(200);
      expect(sent.body).toBe(readFileSync(servedFile(origin, 'remoteEntry.js'), 'utf8'));
      for (const path of nonCanonical(origin.checkout, origin.shell).filter((path) => /^\/(remotes|shells)(\/|\\|$)/i.test(path))) {
        const answer = await rawGet(base, path);
        expect(answer.status, path).toBe(404);
        expect((JSON.parse(answer.body) as { error: { code: string } }).error.code, path).toBe('not_found');
      }
      // The same bytes the asset origin would refuse: changed in place, the shop's origin refuses them too.
      const file = servedFile(origin, 'remoteEntry.js');
      const kept = readFileSync(file);
      try {
        writeFileSync(file, `${kept.toString('utf8')}\n;globalThis.changed = true;`);
        const refused = await rawGet(base, canonical);
        expect(refused.status).toBe(404);
        expect((JSON.parse(refused.body) as { error: { message: string } }).error.message).toBe('Súbor sa nezhoduje s podpísaným vydaním.');
      } finally {
        writeFileSync(file, kept);
      }
    } finally {
      await app.close();
    }
  });
});

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
