/**
 * `release override`'s side (src/override-command.ts, src/local-override.ts): a local build is
 * checked as a release's facts are before any link is asked for, and served on 127.0.0.1 only, its
 * listed scripts and nothing else, to the shop's pages alone (CORS for that origin, set once the shop
 * named it), never to another name for this machine (DNS rebinding); loopback origins are exact.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { localBuildOf, serveLocalBuild, type LocalServer } from '../src/override-command.ts';
import { localRelease, loopbackOrigin } from '../src/local-override.ts';
import { ReleaseRefused } from '../src/refusal.ts';
import { fakeAreaBuild } from './support/index.ts';

let serving: LocalServer | null = null;
afterEach(async () => {
  serving?.server.closeAllConnections();
  await new Promise((resolve) => serving?.server.close(resolve) ?? resolve(null));
  serving = null;
});

describe('a local build', () => {
  it('is checked before a link is asked for: its routes, its files, the compressed copies a release refuses', async () => {
    const dir = fakeAreaBuild('checkout', {
      routes: [{ name: 'checkout-cart', path: '/checkout/cart', module: './CartPage', layout: 'checkout' }],
    });
    const local = await localBuildOf('checkout', dir, '1.0.0', 'http://127.0.0.1:5180');
    expect(local.version).toMatch(/^1\.0\.0-[0-9a-f]{10}$/);
    // Only the scripts a browser runs are listed (not area.json, not the federation manifest).
    expect(Object.keys(local.build.files).sort()).toEqual(['assets/page.js', 'remoteEntry.js']);
    expect(localRelease('checkout', local.version, local.build).entry).toBe(
      `http://127.0.0.1:5180/remotes/checkout/${local.version}/remoteEntry.js`,
    );

    const reserved = fakeAreaBuild('checkout', {
      routes: [{ name: 'ops-cart', path: '/ops/cart', module: './CartPage', layout: 'checkout' }],
    });
    await expect(localBuildOf('checkout', reserved, '1.0.0', 'http://127.0.0.1:5180')).rejects.toThrow(ReleaseRefused);
    const ownCopy = fakeAreaBuild('checkout');
    writeFileSync(join(ownCopy, 'remoteEntry.js.br'), 'not what it unpacks to');
    await expect(localBuildOf('checkout', ownCopy, '1.0.0', 'http://127.0.0.1:5180')).rejects.toThrow(/komprimované kópie/);
    await expect(localBuildOf('catalog', dir, '1.0.0', 'http://127.0.0.1:5180')).rejects.toThrow(/not of catalog/);
  });

  it('names exact loopback origins only', () => {
    expect(loopbackOrigin('http://127.0.0.1:5180')).toBe('http://127.0.0.1:5180');
    expect(loopbackOrigin('http://localhost:8080')).toBe('http://localhost:8080');
    for (const other of ['http://127.0.0.1:05180', 'http://127.0.0.2:5180', 'http://localhost.evil:80', 'http://127.0.0.1', 'x'.repeat(50)])
      expect(loopbackOrigin(other), other).toBeNull();
  });
});

describe('the loopback server', () => {
  it('serves the listed scripts of the build, immutable, to the shop’s origin alone, and nothing else', async () => {
    const dir = fakeAreaBuild('checkout');
    mkdirSync(join(dir, 'server'));
    writeFileSync(join(dir, 'server', 'entry.cjs'), 'module.exports = {}');
    writeFileSync(join(dir, 'remoteEntry.js.map'), '{}');
    serving = await serveLocalBuild({ area: 'checkout', dir, port: 0 });
    expect(serving.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const local = await localBuildOf('checkout', dir, '1.0.0', serving.origin);
    const base = `${serving.origin}/remotes/checkout/${local.version}/`;
    // Nothing before the build is published.
    expect((await fetch(`${base}remoteEntry.js`)).status).toBe(404);
    serving.publish(local.version, Object.keys(local.build.files));

    const early = await fetch(`${base}remoteEntry.js`);
    expect(early.status).toBe(200);
    expect(early.headers.get('access-control-allow-origin')).toBeNull();
    serving.allow('https://shop.example');
    const entry = await fetch(`${base}remoteEntry.js`, { headers: { origin: 'https://shop.example' } });
    expect(entry.status).toBe(200);
    expect(await entry.text()).toContain('checkout');
    expect(entry.headers.get('access-control-allow-origin')).toBe('https://shop.example');
    expect(entry.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(entry.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(entry.headers.get('x-content-type-options')).toBe('nosniff');

    // Not a listed script, another version's address, a path out of the build, another method: nothing.
    for (const path of [
      `${base}area.json`,
      `${base}remoteEntry.js.map`,
      `${base}server/entry.cjs`,
      `${base}../../../package.json`,
      `${serving.origin}/remotes/checkout/1.0.0-0000000000/remoteEntry.js`,
      `${serving.origin}/`,
    ])
      expect((await fetch(path)).status, path).toBe(404);
    expect((await fetch(`${base}remoteEntry.js`, { method: 'POST' })).status).toBe(405);
    // The browser's question before a public page reads from this machine: yes for the shop's pages only.
    const asked = (origin: string) =>
      fetch(`${base}remoteEntry.js`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-private-network': 'true' },
      });
    const yes = await asked('https://shop.example');
    expect(yes.status).toBe(204);
    expect(yes.headers.get('access-control-allow-private-network')).toBe('true');
    expect(yes.headers.get('access-control-allow-origin')).toBe('https://shop.example');
    const no = await asked('https://evil.example');
    expect(no.status).toBe(405);
    expect(no.headers.get('access-control-allow-private-network')).toBeNull();
    // Another name that resolves to this machine (a rebinding site's) gets nothing.
    const port = new URL(serving.origin).port;
    const rebound = await new Promise<number>((resolve, reject) =>
      request(`${base}remoteEntry.js`, { headers: { host: `evil.example:${port}` } }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      })
        .on('error', reject)
        .end(),
    );
    expect(rebound).toBe(421);
  });
});
