/**
 * Stored redirects as a visitor and the operator meet them: a direct load of any old address (a page
 * of the shop or not) is answered 301 before the page is rendered; the operator stores and removes
 * redirects on the operator origin as a named operator, with targets that cannot send a visitor to an attacker's
 * host or round a loop; the browser's shell revalidates the list it keeps (ETag). On SQLite, or on
 * PostgreSQL with DATABASE_URL.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyRegistry, localDirectoryStorage, REGISTRY_KEY } from '@shop/release';
import type { RedirectEntry } from '@shop/shared-kernel/contract';
import { shellHost } from '../../src/web/shell-host.ts';
import { RedirectLookup, redirectsChanged } from '../../src/domains/catalog/redirect/redirect-lookup.ts';
import { releaseIdentities } from '../../src/domains/releases/identities.repository.ts';
import { expectErrorShape, startTestApi, type TestApi } from '../helpers/test-api.ts';
import { shellHostOptions } from '../helpers/shell-host-options.ts';

const originDir = mkdtempSync(join(tmpdir(), 'redirects-'));
let api: TestApi;

/** A released shell (rendered in the browser: it has no server build) and an area whose pages include /doprava-a-platba. */
function fakeRelease() {
  const shellDir = join(originDir, 'shells', 'shell', '1.0.0-a');
  mkdirSync(shellDir, { recursive: true });
  mkdirSync(join(originDir, 'builds'), { recursive: true });
  writeFileSync(join(shellDir, 'index.html'), '<html><head><!--shop-config--></head><body><div id="root"></div></body></html>');
  writeFileSync(join(shellDir, 'routes.json'), JSON.stringify({ routes: [] }));
  const content = {
    version: '1.0.0-c',
    entry: 'remotes/content/1.0.0-c/remoteEntry.js',
    kernel: '3.0.0',
    exposes: ['./StaticPage'],
    routes: [{ name: 'shipping', path: '/doprava-a-platba', module: './StaticPage', layout: 'default' }],
  };
  const registry = {
    ...emptyRegistry(),
    revision: 'r1',
    shell: { version: '1.0.0-a', dir: 'shells/shell/1.0.0-a', kernel: '3.0.0' },
    areas: { content },
  };
  writeFileSync(join(originDir, REGISTRY_KEY), JSON.stringify(registry));
}

beforeAll(async () => {
  fakeRelease();
  api = await startTestApi({
    configure: (app) => {
      void app.register(shellHost, shellHostOptions({ storage: localDirectoryStorage(originDir), integrity: null }));
    },
  });
});
afterAll(async () => {
  await api?.close();
  rmSync(originDir, { recursive: true, force: true });
});

const load = (path: string) => fetch(`${api.baseUrl}${path}`, { redirect: 'manual' });
/** A change of a signed-in operator, on the operator origin. */
const operator = (method: 'PUT' | 'DELETE', path: string, json?: unknown) => api.asOperator(method, path, json);
const store = (old_url: string, new_url: string) => operator('PUT', '/api/operator/redirects', { old_url, new_url });
const remove = (oldUrl: string) => operator('DELETE', `/api/operator/redirects?old_url=${encodeURIComponent(oldUrl)}`);

describe('a direct load of an old address', () => {
  it('of a page of the shop is answered 301 as soon as the operator moves it, and the page again once the redirect is removed', async () => {
    const before = await load('/doprava-a-platba');
    expect(before.status).toBe(200);
    expect(await before.text()).toContain('<div id="root">');

    expect((await store('/doprava-a-platba', '/s/obchodne-podmienky')).status).toBe(200);
    for (const path of ['/doprava-a-platba', '/doprava-a-platba/', '/doprava-a-platba?utm_source=letak']) {
      const moved = await load(path);
      expect(moved.status, path).toBe(301);
      expect(moved.headers.get('location'), path).toBe('/s/obchodne-podmienky');
      expect(moved.headers.get('cache-control')).toBe('public, max-age=300, s-maxage=10');
      expect(moved.headers.get('set-cookie')).toBeNull();
    }

    expect((await remove('/doprava-a-platba')).status).toBe(200);
    expect((await load('/doprava-a-platba')).status).toBe(200);
  });

  it('that is not a page is answered 301 too, to a path of the shop or to the operator’s external address', async () => {
    const internal = await load('/akcia');
    expect(internal.status).toBe(301);
    expect(internal.headers.get('location')).toBe('/vypredaj');
    const external = await load('/katalog-2024');
    expect(external.status).toBe(301);
    expect(external.headers.get('location')).toBe('https://www.example.sk/katalog');
    expect((await load('/toto-neexistuje')).status).not.toBe(301);
  });

  it('follows a chain to its end in one answer', async () => {
    expect((await store('/stara-akcia', '/akcia')).status).toBe(200);
    const moved = await load('/stara-akcia');
    expect(moved.headers.get('location')).toBe('/vypredaj');
    await remove('/stara-akcia');
  });

  it('never sends a visitor to a target stored unsafely outside the operator’s API', async () => {
    await api.db.insertInto('redirects').values({ old_url: '/podvrh', new_url: '//evil.example/prihlasenie' }).execute();
    redirectsChanged();
    expect((await load('/podvrh')).status).not.toBe(301);
    expect((await api.get('/api/redirect?path=/podvrh')).body).toEqual({ data: null });
    await api.db.deleteFrom('redirects').where('old_url', '=', '/podvrh').execute();
    redirectsChanged();
  });
});

describe('the operator’s redirects', () => {
  it('are changed only by a signed-in operator on the operator origin, and each change names the operator in the audit log', async () => {
    const refused = await api.ops('PUT', '/api/operator/redirects', { json: { old_url: '/a', new_url: '/b' }, token: 'wrong-token' });
    expect(refused.status).toBe(401);
    expectErrorShape(refused.body, 'unauthorized');
    expect((await api.ops('DELETE', '/api/operator/redirects?old_url=/akcia')).status).toBe(401);
    // The shop's origin has no operator calls at all.
    const { cookie } = await api.operator();
    const onShop = await api.request('PUT', '/api/operator/redirects', { json: { old_url: '/a', new_url: '/b' }, headers: { cookie } });
    expect(onShop.status).toBe(404);
    expectErrorShape(onShop.body, 'not_found');
    expect((await load('/akcia')).status).toBe(301);

    expect((await store('/zaznam', '/vypredaj')).status).toBe(200);
    expect((await remove('/zaznam')).status).toBe(200);
    const { name } = await api.operator();
    const log = (await releaseIdentities(api.db).recent(10)).map((row) => `${row.actor} ${row.action} ${row.detail}`);
    expect(log).toEqual(expect.arrayContaining([`${name} redirect-put /zaznam → /vypredaj`, `${name} redirect-delete /zaznam`]));
    const listed = await api.asOperator<{ data: RedirectEntry[] }>('GET', '/api/operator/redirects');
    expect(listed.body.data).toContainEqual({ old_url: '/akcia', new_url: '/vypredaj' });
  });

  it('keep the checkout, the payment and the account inside the shop: refused in Slovak when stored, never followed when found', async () => {
    for (const [old_url, new_url] of [
      ['/checkout/cart', 'https://pay-example.org/kosik'],
      ['/checkout', 'https://pay-example.org/'],
      ['/account/login', 'http://evil.example/prihlasenie'],
      ['/payment/success', 'https://evil.example/'],
    ]) {
      const refused = await store(old_url!, new_url!);
      expect(refused.status, old_url).toBe(422);
      expect(refused.body.error).toMatchObject({ code: 'validation_failed', message: expect.stringContaining('/checkout…') });
    }
    // Inside the shop they may move; down a chain they still may not leave it.
    expect((await store('/checkout/stary-kosik', '/checkout/cart')).status).toBe(200);
    expect((await store('/account/stare', '/medzikrok')).status).toBe(200);
    expect((await store('/medzikrok', 'https://evil.example/')).status).toBe(422);
    // A row written past the API (before the rule, or by hand) is never followed out of the shop.
    await api.db.insertInto('redirects').values({ old_url: '/checkout/contact', new_url: 'https://pay-example.org/kontakt' }).execute();
    redirectsChanged();
    expect((await load('/checkout/contact')).status).not.toBe(301);
    expect((await api.get('/api/redirect?path=/checkout/contact')).body).toEqual({ data: null });
    await api.db.deleteFrom('redirects').where('old_url', '=', '/checkout/contact').execute();
    await remove('/checkout/stary-kosik');
    await remove('/account/stare');
  });

  it('refuse targets that are not a path of the shop or an http(s) address, old addresses the shop serves, and loops', async () => {
    for (const new_url of [
      '//evil.example/',
      '/\\evil.example',
      'javascript:alert(1)',
      'evil.example',
      'https://user:heslo@evil.example/',
    ]) {
      const res = await store('/stara-stranka', new_url);
      expect(res.status, new_url).toBe(400);
      expectErrorShape(res.body, 'validation_failed');
    }
    for (const old_url of ['/', '/api/menu', '/ops', 'stara-stranka', '/stara?x=1', '//evil.example']) {
      expect((await store(old_url, '/c/tehly')).status, old_url).toBe(400);
    }
    expect((await store('/a', '/a/')).status).toBe(409);
    expect((await store('/vypredaj', '/akcia')).status).toBe(409);
    const loop = await store('/vypredaj', '/akciove-ponuky');
    expect(loop.status).toBe(409);
    expectErrorShape(loop.body, 'conflict');
    expect((await store('/x', `https://evil.example/${'a'.repeat(2000)}`)).status).toBe(400);
    expect((await remove('/nikdy-nebolo')).status).toBe(404);
    expect((await api.get<{ data: RedirectEntry[] }>('/api/redirect/list')).body.data.map((entry) => entry.old_url)).not.toContain(
      '/stara-stranka',
    );
  });

  it('are stored as a normalised path, one target per path', async () => {
    const saved = await store('/Stara-Cesta/', 'https://www.example.sk/nová-cesta');
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({ data: { old_url: '/Stara-Cesta', new_url: 'https://www.example.sk/nov%C3%A1-cesta' } });
    await store('/Stara-Cesta', '/c/tehly');
    const list = (await api.get<{ data: RedirectEntry[] }>('/api/redirect/list')).body.data;
    expect(list.filter((entry) => entry.old_url.startsWith('/Stara-Cesta'))).toEqual([{ old_url: '/Stara-Cesta', new_url: '/c/tehly' }]);
    await remove('/Stara-Cesta/');
  });
});

describe('the list the browser keeps', () => {
  it('is revalidated with its ETag: unchanged it is a 304 without a body, changed a new list', async () => {
    const first = await fetch(`${api.baseUrl}/api/redirect/list`);
    const tag = first.headers.get('etag')!;
    expect(tag).toMatch(/^"[\w-]+"$/);
    expect(first.headers.get('cache-control')).toBe('public, no-cache');
    const again = await fetch(`${api.baseUrl}/api/redirect/list`, { headers: { 'if-none-match': tag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');

    await store('/novinka-2025', '/vypredaj');
    const changed = await fetch(`${api.baseUrl}/api/redirect/list`, { headers: { 'if-none-match': tag } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(tag);
    expect(((await changed.json()) as { data: RedirectEntry[] }).data).toContainEqual({ old_url: '/novinka-2025', new_url: '/vypredaj' });
    await remove('/novinka-2025');
  });
});

describe('the table a server keeps', () => {
  it('is read once for many page loads, again after its bound or a change here, and kept when a reload fails', async () => {
    let now = 0;
    let loads = 0;
    let fail = false;
    const lookup = new RedirectLookup(
      async () => {
        loads += 1;
        if (fail) throw new Error('database down');
        return [{ old_url: '/a', new_url: `/b${loads}` }];
      },
      10_000,
      () => now,
    );
    const [one, two] = await Promise.all([lookup.table(), lookup.table()]);
    expect(loads).toBe(1);
    expect(one).toBe(two);
    now = 9_999;
    expect((await lookup.table()).get('/a')).toBe('/b1');
    now = 10_000;
    expect((await lookup.table()).get('/a')).toBe('/b2');
    lookup.invalidate();
    expect((await lookup.table()).get('/a')).toBe('/b3');
    fail = true;
    now = 30_000;
    expect((await lookup.table()).get('/a')).toBe('/b3');
  });
});
