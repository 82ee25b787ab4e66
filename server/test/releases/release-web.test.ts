/**
 * What browsers see of releases: the public registry (no who or why), the
 * server-sent registry events open tabs listen to, and the page's policy.
 * Preview links: release-previews.test.ts.
 *
 * On the local directory; the same server pieces on an S3 bucket (and the
 * static origin) are tested in release-web-s3.test.ts, the preview host's
 * reading of a published build in release-canary-preview.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { errorHandler } from '../../src/infra/http/error-handler.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deploy,
  rollback,
  readRegistry,
  localDirectoryStorage,
  originBook,
  releaseIntegrity,
  generateSigningKey,
  readSigningKey,
} from '@shop/release';
import { shellHost } from '../../src/web/shell-host.ts';
import { registryEvents } from '../../src/web/registry-events.ts';
import { cartRoute, fakeAreaBuild, fakeShellBuild } from '@shop/release/testing';
import { openRegistryEvents } from '../helpers/registry-events.ts';
import { shellHostOptions } from '../helpers/shell-host-options.ts';
import { inlineScriptHashes } from '../../src/infra/http/security-headers.ts';

const origin = mkdtempSync(join(tmpdir(), 'release-web-'));
const storage = localDirectoryStorage(origin);
const provenance = { who: 'team', reason: 'internal reason' };
const key = generateSigningKey();
const signingKey = readSigningKey(key.privateKeyPem);
const integrity = releaseIntegrity({
  storage,
  keys: async () => [{ keyId: key.keyId, owner: 'shop', area: null, publicKey: key.publicKeyPem }],
});
const app = Fastify();
// The real server's one error handler: a refusal here is thrown, as everywhere.
app.setErrorHandler(errorHandler);
let base = '';

beforeAll(async () => {
  await deploy({
    storage,
    part: 'checkout',
    distDir: fakeAreaBuild('checkout', { routes: [cartRoute] }),
    packageVersion: '1.0.0',
    provenance,
    init: true,
    signingKey,
  });
  await deploy({ storage, part: 'shell', distDir: fakeShellBuild(), packageVersion: '1.0.0', provenance, signingKey });
  registryEvents(app, { storage, pollMs: 50 });
  await shellHost(app, shellHostOptions({ storage, integrity }));
  base = await app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await app.close();
  rmSync(origin, { recursive: true, force: true });
});

/** The runtime configuration a page was served with. */
async function served(cookie?: string) {
  const html = await (await fetch(`${base}/`, { headers: cookie ? { cookie } : {} })).text();
  const json = /<script type="application\/json" id="shop-config">(.*?)<\/script>/.exec(html)?.[1] ?? 'null';
  return JSON.parse(json) as {
    registry: { revision: string; areas: { checkout: { version: string; routes: { path: string }[] } } };
    preview: { area: string; version: string } | null;
  };
}

describe('the public registry', () => {
  it('says what to load, not who moved it or why', async () => {
    const response = await fetch(`${base}/builds/latest.json`);
    expect(response.headers.get('cache-control')).toBe('no-cache');
    const body = (await response.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['areas', 'canaries', 'revision']);
    expect(JSON.stringify(body)).not.toContain('internal reason');
    expect(JSON.stringify(body)).not.toContain('team');
  });
});

describe("a page's Content-Security-Policy", () => {
  it('admits exactly the inline scripts the page runs, by hash, and scripts only from the shop and the asset origin', async () => {
    const response = await fetch(`${base}/`);
    const policy = response.headers.get('content-security-policy') ?? '';
    const html = await response.text();
    const scriptSrc = /(?:^|; )script-src ([^;]*)/.exec(policy)?.[1]?.split(' ') ?? [];
    const hashes = scriptSrc.filter((source) => source.startsWith("'sha256-"));
    // Every inline script the browser runs (not JSON blocks) is admitted; beside them only the consent
    // notice's, which a page without the floating notice does not carry.
    const ran = inlineScriptHashes(html);
    expect(ran.length).toBeGreaterThanOrEqual(1);
    expect(hashes).toEqual(expect.arrayContaining(ran));
    // The import map (the scripts' integrity) is one of them.
    expect(html).toMatch(/<script type="importmap">\{"integrity":/);
    expect(hashes.length).toBeLessThanOrEqual(ran.length + 1);
    expect(scriptSrc.filter((source) => !source.startsWith("'sha256-")).sort()).toEqual(["'self'", 'https://cdn.example'].sort());
    expect(policy).not.toContain('unsafe-eval');
    expect(policy).toContain("object-src 'none'");
    expect(policy).toContain("base-uri 'none'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toContain('report-uri /api/csp-report');
    // Served over https (PUBLIC_URL): the Reporting API's endpoint too (over http, report-uri alone).
    expect(policy).toMatch(/; report-to csp$/);
    expect(response.headers.get('reporting-endpoints')).toBe('csp="/api/csp-report"');
    // Configuration is data, never run.
    expect(html).toMatch(/<script type="application\/json" id="shop-config">\{/);
  });
});

describe('registry events', () => {
  it('tell an open tab the revision at once and again within a second of every move', async () => {
    const events = await openRegistryEvents(base);
    expect(events.contentType).toContain('text/event-stream');
    const nextRevision = () => events.nextRevision();
    expect(await nextRevision()).toBe((await readRegistry(storage)).revision);

    await deploy({
      storage,
      part: 'checkout',
      distDir: fakeAreaBuild('checkout', { marker: 'moved', routes: [cartRoute] }),
      packageVersion: '1.0.0',
      provenance,
      signingKey,
    });
    const movedAt = Date.now();
    const moved = await nextRevision();
    expect(moved).toBe((await readRegistry(storage)).revision);
    expect(Date.now() - movedAt).toBeLessThan(1000);

    await rollback({ storage, part: 'checkout', provenance });
    expect(await nextRevision()).toBe((await readRegistry(storage)).revision);
    events.close();
  });
  it('a stream that opens while the server begins to stop is ended, so the server stops with the tab still open', async () => {
    const stopping = Fastify({ logger: false });
    let looked: () => void = () => undefined;
    const looking = new Promise<void>((resolve) => (looked = resolve));
    let answer: () => void = () => undefined;
    const book = {
      ...originBook(storage),
      // The stream's first look at the registry takes until the test lets it finish.
      exists: () => {
        looked();
        return new Promise<boolean>((resolve) => (answer = () => resolve(true)));
      },
    };
    registryEvents(stopping, { storage, book, pollMs: 60_000 });
    const url = await stopping.listen({ port: 0, host: '127.0.0.1' });
    const tab = fetch(`${url}/builds/events`).then(async (response) => (await response.text()).trim());
    await looking;
    const stopped = stopping.close();
    answer();
    // The stream ends without an event (its retry hint only): the tab comes back to the next server.
    expect(await tab).toBe('retry: 5000');
    await stopped;
  });
  it('a server with as many listeners as it takes refuses the next in the error shape, saying when to come back', async () => {
    const busy = Fastify({ logger: false });
    busy.setErrorHandler(errorHandler);
    registryEvents(busy, { storage, maxClients: 0 });
    const response = await busy.inject({ method: 'GET', url: '/builds/events' });
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe('30');
    expect(response.json().error.code).toBe('internal');
    expect(response.json().error.message).toMatch(/^Server je vyťažený, skúste to o chvíľu\./);
    await busy.close();
  });
});

describe('the revision a page names', () => {
  it('is the one in force, also after a move that changes no version the page loads (a preview)', async () => {
    const first = await served();
    expect(first.registry.revision).toBe((await readRegistry(storage)).revision);
    await deploy({
      storage,
      part: 'checkout',
      distDir: fakeAreaBuild('checkout', { marker: 'one-more-preview', routes: [cartRoute] }),
      packageVersion: '1.0.0',
      provenance,
      mode: { kind: 'publish' },
      signingKey,
    });
    const inForce = (await readRegistry(storage)).revision;
    expect(inForce).not.toBe(first.registry.revision);
    // Within the import map's reuse: the same versions, the revision in force (else an open tab's
    // registry events would name a revision the page did not, and its next click would load fully).
    const next = await served();
    expect(next.registry.areas.checkout.version).toBe(first.registry.areas.checkout.version);
    expect(next.registry.revision).toBe(inForce);
  });
});
