/**
 * The shop's web side on releases in an S3 bucket (a real local S3-compatible
 * server, s3rver), put together as server.ts does: one storage from the
 * environment (S3_BUCKET, S3_ENDPOINT, S3_PREFIX; credentials from the SDK's
 * default chain) for the shell host, the registry events, the operator routes
 * and the areas' static origin. Version folders are downloaded into
 * `<origin>/.s3-cache` on first use; the static origin answers with the same
 * headers as on the local directory (compared with one serving the same builds
 * from a directory).
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { errorHandler } from '../../src/infra/http/error-handler.ts';
import {
  deploy,
  readRegistry,
  localDirectoryStorage,
  type ReleaseStorage,
  S3_CACHE_DIR,
  storageFromEnv,
  releaseIntegrity,
  generateSigningKey,
  readSigningKey,
} from '@shop/release';
import { shellHost } from '../../src/web/shell-host.ts';
import { releasedFileCheck } from '../../src/web/verified-files.ts';

const madeKey = generateSigningKey();
const signingKey = readSigningKey(madeKey.privateKeyPem);
/** The shop's key, as the database would list it: this bucket's pages serve only what it signed. */
const trustedKey = { keyId: madeKey.keyId, owner: 'shop', area: null, publicKey: madeKey.publicKeyPem };
import { registryEvents } from '../../src/web/registry-events.ts';
import { buildStaticOrigin, IMMUTABLE, releasedFileOf } from '../../src/web/static-origin.ts';
import { cartRoute, fakeAreaBuild, fakeShellBuild, S3RVER_CREDENTIALS, startS3Server, type S3TestServer } from '@shop/release/testing';
import { openRegistryEvents } from '../helpers/registry-events.ts';
import { startTestApi, type TestApi } from '../helpers/test-api.ts';
import { shellHostOptions } from '../helpers/shell-host-options.ts';

const provenance = { who: 'team', reason: 'internal reason' };

let s3: S3TestServer;
let origin = '';
let localOrigin = '';
let storage: ReleaseStorage;
let local: ReleaseStorage;
const app = Fastify();
let assets: FastifyInstance;
let localAssets: FastifyInstance;
let base = '';
let assetBase = '';
let localAssetBase = '';
let checkout = '';
let shell = '';
/** The operators' database, and the signed-in operator's Cookie header. */
let api: TestApi;
let operatorCookie = '';

/** A shell chunk's bytes. */
const shellChunk = (marker: string) => `export const shell = ${JSON.stringify(marker)};${'/* padding */'.repeat(24)}`;

/** A shell build with a server build (server/entry.cjs) that renders the cart page from the checkout area's server build. */
function shellBuild(marker: string): string {
  const dir = fakeShellBuild();
  writeFileSync(
    join(dir, 'index.html'),
    '<!doctype html><html><head><title>shop</title><!--shop-config--></head><body><div id="root"></div></body></html>',
  );
  mkdirSync(join(dir, 'assets'));
  // Long enough for the release to keep a brotli copy of it (a build brings none of its own).
  writeFileSync(join(dir, 'assets', `shell-${marker}.js`), shellChunk(marker));
  mkdirSync(join(dir, 'server'));
  writeFileSync(
    join(dir, 'server', 'entry.cjs'),
    `const React = require('react');
exports.createShellServer = ({ loadModule }) => {
  const Cart = React.lazy(() => loadModule('checkout/CartPage').then((module) => ({ default: module.default })));
  return {
    routeForPath: (path) => (path === '/checkout/cart' ? { name: 'checkout-cart', area: 'checkout', serverRender: true } : undefined),
    isPage: (path) => path === '/' || path === '/checkout/cart',
    page: ({ url }) => url.startsWith('/checkout/cart')
      ? React.createElement(React.Suspense, { fallback: null }, React.createElement(Cart))
      : React.createElement('p', null, 'home of shell ${marker}'),
  };
};
`,
  );
  return dir;
}

/** The checkout area with a server build of its cart page (and, made by the release, a brotli copy of its page chunk). */
function checkoutBuild(marker: string): string {
  // The page chunk long enough for the release to keep a brotli copy of it.
  const dir = fakeAreaBuild('checkout', { marker, routes: [cartRoute], pageBytes: 60 });
  mkdirSync(join(dir, 'server'));
  writeFileSync(
    join(dir, 'server', 'entry.cjs'),
    `const React = require('react');
exports.modules = { './CartPage': async () => ({ default: () => React.createElement('p', null, 'Košík ${marker} zo servera') }) };
`,
  );
  return dir;
}

beforeAll(async () => {
  s3 = await startS3Server();
  // What the SDK's default chain reads (as in production: no credentials in S3_* variables).
  vi.stubEnv('AWS_ACCESS_KEY_ID', S3RVER_CREDENTIALS.accessKeyId);
  vi.stubEnv('AWS_SECRET_ACCESS_KEY', S3RVER_CREDENTIALS.secretAccessKey);
  origin = mkdtempSync(join(tmpdir(), 'release-web-s3-'));
  localOrigin = mkdtempSync(join(tmpdir(), 'release-web-s3-local-'));
  storage = storageFromEnv(
    { S3_BUCKET: s3.bucket, S3_ENDPOINT: s3.endpoint, S3_PREFIX: `web-${randomUUID().slice(0, 8)}/releases` },
    origin,
  );
  local = localDirectoryStorage(localOrigin);
  expect(storage.local).toBe(false);

  // The same builds into the bucket and into a directory: the same content-hashed versions.
  const [area, shellDist] = [checkoutBuild('v1'), shellBuild('one')];
  for (const target of [storage, local]) {
    checkout = (
      await deploy({ storage: target, part: 'checkout', distDir: area, packageVersion: '1.0.0', provenance, signingKey, init: true })
    ).version;
    shell = (await deploy({ storage: target, part: 'shell', distDir: shellDist, packageVersion: '1.0.0', provenance, signingKey })).version;
  }

  // As server.ts puts the server together, on that one storage.
  app.setErrorHandler(errorHandler);
  // The operator origin beside it, on the same storage.
  api = await startTestApi({ operatorConsole: { storage, publicUrl: 'https://shop.example' } });
  registryEvents(app, { storage });
  await app.register(shellHost, shellHostOptions({ storage, integrity: releaseIntegrity({ storage, keys: async () => [trustedKey] }) }));
  // Each origin sends only what the shop's key signed.
  assets = await buildStaticOrigin({
    storage,
    logger: app.log,
    check: releasedFileCheck(releaseIntegrity({ storage, keys: async () => [trustedKey] }), () => undefined),
  });
  localAssets = await buildStaticOrigin({
    storage: local,
    logger: app.log,
    check: releasedFileCheck(releaseIntegrity({ storage: local, keys: async () => [trustedKey] }), () => undefined),
  });
  base = await app.listen({ port: 0, host: '127.0.0.1' });
  assetBase = await assets.listen({ port: 0, host: '127.0.0.1' });
  localAssetBase = await localAssets.listen({ port: 0, host: '127.0.0.1' });
  operatorCookie = (await api.operator()).cookie;
});
afterAll(async () => {
  await Promise.allSettled([app.close(), assets?.close(), localAssets?.close()]);
  await api?.close();
  await s3?.stop();
  vi.unstubAllEnvs();
  for (const dir of [origin, localOrigin]) if (dir) rmSync(dir, { recursive: true, force: true });
});

const cached = (...path: string[]) => join(origin, S3_CACHE_DIR, ...path);

describe('the shell host on S3', () => {
  it('serves the page of the shell in force, rendered with the area from the bucket, its versions downloaded once into <origin>/.s3-cache', async () => {
    const response = await fetch(`${base}/checkout/cart`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('<title>shop</title>');
    expect(html).toContain('Košík v1 zo servera');
    const config = JSON.parse(/<script type="application\/json" id="shop-config">(.*?)<\/script>/.exec(html)?.[1] ?? 'null') as {
      registry: { revision: string; areas: { checkout: { version: string } } };
    };
    expect(config.registry.revision).toBe((await readRegistry(storage)).revision);
    expect(config.registry.areas.checkout.version).toBe(checkout);
    // The page's chunks, from the area's mf-manifest.json in the bucket.
    expect(html).toContain(`https://cdn.example/remotes/checkout/${checkout}/assets/page.js`);
    expect(existsSync(cached('shells', 'shell', shell, 'index.html'))).toBe(true);
    expect(existsSync(cached('remotes', 'checkout', checkout, 'server', 'entry.cjs'))).toBe(true);

    // Another page view: nothing of the released folders is asked for again, only the registry.
    s3.requests.splice(0);
    const home = await fetch(`${base}/`);
    expect(home.status).toBe(200);
    expect(await home.text()).toContain('home of shell one');
    expect(s3.requests.filter((line) => line.includes(`/${shell}`) || line.includes(`/${checkout}`))).toEqual([]);
  });

  it("serves the shell's hashed files, an older version's too (downloaded when first asked for)", async () => {
    const first = await fetch(`${base}/assets/shell-one.js`);
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe(IMMUTABLE);
    expect(await first.text()).toBe(shellChunk('one'));

    const next = (await deploy({ storage, part: 'shell', distDir: shellBuild('two'), packageVersion: '1.0.0', provenance, signingKey }))
      .version;
    expect((await fetch(`${base}/assets/shell-two.js`)).status).toBe(200);
    expect(await (await fetch(`${base}/assets/shell-one.js`)).text()).toBe(shellChunk('one'));
    expect((await fetch(`${base}/assets/shell-none.js`)).status).toBe(404);
    expect(existsSync(cached('shells', 'shell', next, 'index.html'))).toBe(true);
    expect(await (await fetch(`${base}/`)).text()).toContain('home of shell two');
  });
});

/** The headers two answers must share: all but the date, the connection's and the file's own validators (its mtime differs). */
function comparable(response: Response): Record<string, string> {
  const skip = new Set(['date', 'connection', 'keep-alive', 'etag', 'last-modified']);
  return Object.fromEntries([...response.headers].filter(([name]) => !skip.has(name)));
}

type RawAnswer = { status: number; body: string; bytes: Buffer; headers: Record<string, string | string[] | undefined> };

/** A request with the path exactly as written (fetch would resolve `..` before sending it) and the headers as given (fetch adds its own Accept-Encoding and decodes). */
function rawGet(url: string, path: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const request = httpRequest({ host: target.hostname, port: target.port, path, method: 'GET', headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const bytes = Buffer.concat(chunks);
        resolve({ status: response.statusCode ?? 0, body: bytes.toString(), bytes, headers: response.headers });
      });
    });
    request.on('error', reject);
    request.end();
  });
}

describe("the shell's files", () => {
  it('go out in the encoding asked for, saying that the answer varies with it, so a shared cache never hands brotli to a browser that did not ask', async () => {
    const file = `/assets/shell-one.js`;
    const compressed = await rawGet(base, file, { 'accept-encoding': 'br' });
    const plain = await rawGet(base, file, { 'accept-encoding': 'identity' });
    for (const answer of [compressed, plain]) {
      expect(answer.status).toBe(200);
      expect(answer.headers['cache-control']).toBe(IMMUTABLE);
      expect(answer.headers.vary).toMatch(/accept-encoding/i);
    }
    expect(compressed.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(compressed.bytes).toString()).toBe(shellChunk('one'));
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(shellChunk('one'));
  });
});

describe('the static origin on S3', () => {
  it("serves an area's files with the same headers as from a directory: immutable chunks, CORS, types, precompressed siblings", async () => {
    const cases: [string, RequestInit?][] = [
      [`/remotes/checkout/${checkout}/assets/page.js`],
      [`/remotes/checkout/${checkout}/assets/page.js`, { headers: { 'accept-encoding': 'br' } }],
      [`/remotes/checkout/${checkout}/remoteEntry.js`],
      [`/remotes/checkout/${checkout}/mf-manifest.json?v=1`],
      [`/remotes/checkout/${checkout}/area.json`, { method: 'HEAD' }],
    ];
    for (const [path, init] of cases) {
      const [fromS3, fromDirectory] = await Promise.all([fetch(`${assetBase}${path}`, init), fetch(`${localAssetBase}${path}`, init)]);
      expect(fromS3.status, path).toBe(200);
      expect(comparable(fromS3), path).toEqual(comparable(fromDirectory));
      expect(Buffer.from(await fromS3.arrayBuffer()), path).toEqual(Buffer.from(await fromDirectory.arrayBuffer()));
    }
    const chunk = await fetch(`${assetBase}/remotes/checkout/${checkout}/assets/page.js`);
    expect(chunk.headers.get('cache-control')).toBe(IMMUTABLE);
    expect(chunk.headers.get('access-control-allow-origin')).toBe('*');
    expect(chunk.headers.get('content-type')).toMatch(/^(text|application)\/javascript/);
    expect(chunk.headers.get('etag')).toBeNull();
    const entry = await fetch(`${assetBase}/remotes/checkout/${checkout}/remoteEntry.js`);
    expect(entry.headers.get('cache-control')).toBe('no-cache');
    expect(entry.headers.get('etag')).not.toBeNull();
  });

  it('answers 404 with CORS, in the same shape as from a directory, for what is not there', async () => {
    for (const path of [
      `/remotes/checkout/${checkout}/assets/none.js`,
      '/remotes/checkout/9.9.9-none/remoteEntry.js',
      `/remotes/checkout/${checkout}/assets`,
    ]) {
      const [fromS3, fromDirectory] = await Promise.all([fetch(`${assetBase}${path}`), fetch(`${localAssetBase}${path}`)]);
      expect(fromS3.status, path).toBe(404);
      expect(fromS3.headers.get('access-control-allow-origin'), path).toBe('*');
      expect(await fromS3.json(), path).toEqual(await fromDirectory.json());
    }
  });

  it('looks nothing up for a name no release makes, and never leaves the version folder', async () => {
    s3.requests.splice(0);
    const refused = [
      `/remotes/checkout/${checkout}/../../../builds/latest.json`,
      `/remotes/checkout/${checkout}/%2e%2e/%2e%2e/%2e%2e/builds/latest.json`,
      `/remotes/checkout/${checkout}/assets%2f..%2f..%2fx`,
      `/remotes/checkout/..%2f..%2fbuilds/latest.json`,
      '/remotes/checkout/%2e%2e/x.js',
      '/remotes/stock/1.0.0-aaaa/remoteEntry.js',
      `/remotes/checkout/${'1'.repeat(65)}/remoteEntry.js`,
      `/remotes/checkout/${checkout}/${'a/'.repeat(8)}x.js`,
      `/remotes/checkout/${checkout}/a%00.js`,
      `/remotes/checkout/${checkout}/%zz.js`,
      `/remotes/checkout/${checkout}/${'x'.repeat(700)}.js`,
      `/remotes/checkout/${checkout}`,
      '/remotes/',
    ];
    for (const path of refused) {
      const answer = await rawGet(assetBase, path);
      // A malformed escape is refused by Fastify itself (400), before any route.
      expect(answer.status, path).toBe(path.includes('%zz') ? 400 : 404);
      expect(answer.body, path).not.toContain('revision');
    }
    // (The registry events' watcher looks at the registry meanwhile.)
    expect(s3.requests.filter((line) => !line.includes('/builds/latest.json'))).toEqual([]);
    expect(releasedFileOf(`/remotes/checkout/${checkout}/assets/page.js?x=1`)).toEqual({
      area: 'checkout',
      version: checkout,
      file: 'assets/page.js',
    });
  });

  it('downloads a version once for the requests that come at the same time', async () => {
    const next = (
      await deploy({
        storage,
        part: 'checkout',
        distDir: checkoutBuild('parallel'),
        packageVersion: '1.0.0',
        provenance,
        signingKey,
        mode: { kind: 'publish' },
      })
    ).version;
    const files = [
      'remoteEntry.js',
      'area.json',
      'mf-manifest.json',
      'assets/page.js',
      'assets/page.js.br',
      'assets/page.js.gz',
      'server/entry.cjs',
    ];
    s3.requests.splice(0);
    const answers = await Promise.all([...files, ...files].map((file) => fetch(`${assetBase}/remotes/checkout/${next}/${file}`)));
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
    // Each file once, and one listing of the folder (the whole of a download), not one per request.
    const objectKey = (file: string) =>
      `/${s3.bucket}/${storage.location(`remotes/checkout/${next}/${file}`).split('/').slice(3).join('/')}`;
    const gets = s3.requests.filter((line) => line.startsWith('GET ') && line.includes(`/${next}/`) && line.endsWith('?x-id=GetObject'));
    // The folder holds its signed manifest too: downloaded with the folder, and read once more to verify it.
    const signedFiles = ['release-manifest.json', 'release-manifest.sig'];
    expect(gets.filter((line) => !signedFiles.some((file) => line.includes(file))).sort()).toEqual(
      files.map((file) => `GET ${objectKey(file)}?x-id=GetObject`).sort(),
    );
    for (const file of signedFiles) expect(gets.filter((line) => line.includes(file)).length).toBeLessThanOrEqual(2);
    expect(s3.requests.filter((line) => new RegExp(`^GET /${s3.bucket}/\\?prefix=.*${next}`).test(line))).toHaveLength(1);
    expect(existsSync(cached('remotes', 'checkout', next, 'assets', 'page.js.br'))).toBe(true);
    // Downloaded: the next requests read the cache only.
    s3.requests.splice(0);
    expect((await fetch(`${assetBase}/remotes/checkout/${next}/remoteEntry.js`)).status).toBe(200);
    expect(s3.requests.filter((line) => !line.includes('/builds/latest.json'))).toEqual([]);
  });
});

describe('registry events and operator calls on S3', () => {
  it('show the releases in force on /api/ops/releases', async () => {
    const response = await fetch(`${api.opsUrl}/api/ops/releases`, { headers: { cookie: operatorCookie } });
    expect(response.status).toBe(200);
    const { data } = (await response.json()) as { data: { registry: boolean; parts: { part: string; version: string | null }[] } };
    expect(data.registry).toBe(true);
    expect(data.parts.find((part) => part.part === 'checkout')?.version).toBe((await readRegistry(storage)).areas.checkout!.version);
    expect((await fetch(`${api.opsUrl}/api/ops/releases`)).status).toBe(401);
    // The shop's origin has none of it.
    expect((await fetch(`${base}/api/ops/releases`, { headers: { cookie: operatorCookie } })).status).toBe(404);
  });

  it('tell an open tab of a deploy and of a rollback from /ops within a few seconds (the registry watched every 500 ms)', async () => {
    const events = await openRegistryEvents(base);
    expect(events.contentType).toContain('text/event-stream');
    const nextRevision = () => events.nextRevision();
    try {
      // The stream opens with the revision its watcher last saw, which may be one look (500 ms) behind
      // the previous test's move: the current one follows within that look.
      const current = (await readRegistry(storage)).revision;
      let first = await nextRevision();
      if (first !== current) first = await nextRevision();
      expect(first).toBe(current);

      const moved = (
        await deploy({ storage, part: 'checkout', distDir: checkoutBuild('v2'), packageVersion: '1.0.0', provenance, signingKey })
      ).version;
      let since = Date.now();
      expect(await nextRevision()).toBe((await readRegistry(storage)).revision);
      expect(Date.now() - since).toBeLessThan(3000);
      expect(await (await fetch(`${base}/checkout/cart`)).text()).toContain('Košík v2 zo servera');
      expect(moved).not.toBe(checkout);

      const rolledBack = await fetch(`${api.opsUrl}/api/ops/releases/checkout/rollback`, {
        method: 'POST',
        headers: { cookie: operatorCookie, 'content-type': 'application/json', origin: api.opsUrl },
        body: JSON.stringify({ reason: 'test' }),
      });
      expect(rolledBack.status).toBe(200);
      since = Date.now();
      const revision = await nextRevision();
      expect(Date.now() - since).toBeLessThan(3000);
      const registry = await readRegistry(storage);
      expect(revision).toBe(registry.revision);
      expect(registry.areas.checkout!.version).toBe(checkout);
    } finally {
      events.close();
    }
  });
});
