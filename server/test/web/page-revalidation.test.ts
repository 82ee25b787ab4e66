/**
 * A kept page is confirmed without a render (server/src/web/page-validator.ts): a shared cache
 * (nginx, a CDN) asking again with the page's ETag gets 304 and no render while nothing the page
 * shows changed; a price change, a stock change of a product on the page, a release and the
 * header's opening-hours text each give the page anew. The shell here is a small server build
 * whose page shows a product's price and stock and the opening-hours text, loaded through the API
 * in-process as the real pages' data is.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { openingHoursText } from '@shop/shared-kernel/rules';
import { emptyRegistry, REGISTRY_KEY, localDirectoryStorage } from '@shop/release';
import { shellHost } from '../../src/web/shell-host.ts';
import { catalogChanged, catalogChanges } from '../../src/infra/cache/catalog-version.ts';
import { shellHostOptions } from '../helpers/shell-host-options.ts';

const originDir = mkdtempSync(join(tmpdir(), 'page-revalidation-'));
const shellDir = join(originDir, 'shells', 'shell', '1.0.0-a');
const app = Fastify();
/** The catalog the page shows, as the test changes it. */
const products = new Map([
  [41, { p_id: 41, p_url: 'tehla', price: '12.90', stock: 5 }],
  [42, { p_id: 42, p_url: 'tvarnica', price: '3.10', stock: 9 }],
]);
let renders = 0;

/** A shell's server build: the product page of `/p/<url>`, its data declared, with the header's hours. */
const SHELL_SERVER = `
const React = require('react');
const { api } = require('@shop/shared-kernel');
exports.createShellServer = () => ({
  routeForPath: (path) => (path.startsWith('/p/') ? { name: 'product', area: 'catalog', serverRender: false } : undefined),
  isPage: (path) => path.startsWith('/p/'),
  pageData: async (url) => ({
    headBeforeData: false,
    loads: [
      { key: 'GET /api/test-product/' + url.slice(3), load: () => Promise.reject(new Error('loaded in-process')) },
      { key: 'GET /api/test-hours', load: () => Promise.reject(new Error('loaded in-process')) },
    ],
  }),
  page: ({ url, server }) => {
    const product = server.data.get('GET /api/test-product/' + url.slice(3));
    const hours = server.data.get('GET /api/test-hours');
    const p = product && product.ok ? product.data.data : null;
    return React.createElement('main', null,
      React.createElement('p', { className: 'hours' }, hours && hours.ok ? hours.data.data : ''),
      p ? React.createElement('p', { className: 'product' }, p.p_url + ' ' + p.price + ' EUR, ' + p.stock + ' ks') : 'nenájdené');
  },
});
`;

function writeRegistry(revision: string) {
  const registry = {
    ...emptyRegistry(),
    revision,
    shell: { version: '1.0.0-a', dir: 'shells/shell/1.0.0-a', kernel: '1.2.0' },
    areas: {},
  };
  writeFileSync(join(originDir, REGISTRY_KEY), JSON.stringify(registry));
}

beforeAll(async () => {
  mkdirSync(join(shellDir, 'server'), { recursive: true });
  mkdirSync(join(originDir, 'builds'), { recursive: true });
  writeFileSync(
    join(shellDir, 'index.html'),
    '<!doctype html><html><head><title>obchod</title><!--shop-config--></head><body><div id="root"></div></body></html>',
  );
  writeFileSync(join(shellDir, 'routes.json'), JSON.stringify({ routes: [] }));
  writeFileSync(join(shellDir, 'server', 'entry.cjs'), SHELL_SERVER);
  writeRegistry('r1');
  // The page's data, through the API in-process; each answer counts as part of one render.
  app.get<{ Params: { url: string } }>('/api/test-product/:url', async (request, reply) => {
    renders += 1;
    const product = [...products.values()].find((p) => p.p_url === request.params.url);
    if (!product) return reply.code(404).send({ error: { code: 'not_found', message: 'Produkt neexistuje.' } });
    return { data: { ...product, related: [...products.values()].filter((p) => p !== product).map((p) => ({ p_id: p.p_id })) } };
  });
  app.get('/api/test-hours', async () => ({ data: openingHoursText(new Date()) }));
  await shellHost(
    app,
    shellHostOptions({
      storage: localDirectoryStorage(originDir),
      integrity: null,
      // No page cache (each 200 here is a render), so Cache-Control is no-cache: kept, and asked again each time.
      pageCacheMs: 0,
    }),
  );
  await app.ready();
});
afterAll(async () => {
  await app.close();
  rmSync(originDir, { recursive: true, force: true });
});
afterEach(() => vi.useRealTimers());

const page = (url: string, etag?: string) => app.inject({ method: 'GET', url, headers: etag ? { 'if-none-match': etag } : {} });

/** The page once, then asked again with its ETag as nginx revalidates: answers both. */
async function revalidate(url: string) {
  const first = await page(url);
  expect(first.statusCode).toBe(200);
  const etag = first.headers.etag as string;
  expect(etag).toMatch(/^W\/"/);
  const rendersBefore = renders;
  const again = await page(url, etag);
  return { first, etag, again, rendered: renders - rendersBefore };
}

describe('a kept page asked for again with its ETag', () => {
  it('is confirmed with 304, no body and no render while nothing it shows changed', async () => {
    const { first, etag, again, rendered } = await revalidate('/p/tehla');
    expect(first.body).toContain('tehla 12.90 EUR, 5 ks');
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(etag);
    expect(again.headers['cache-control']).toBe(first.headers['cache-control']);
    expect(rendered).toBe(0);
    // A stock change of a product the page does not show leaves it confirmed.
    catalogChanges.record({ kind: 'products', ids: [999_999] });
    const before = renders;
    expect((await page('/p/tehla', etag)).statusCode).toBe(304);
    expect(renders).toBe(before);
  });

  it('gets the new page after a price change (a change of the whole catalog)', async () => {
    const { etag } = await revalidate('/p/tehla');
    products.get(41)!.price = '13.50';
    catalogChanged();
    const changed = await page('/p/tehla', etag);
    expect(changed.statusCode).toBe(200);
    expect(changed.body).toContain('tehla 13.50 EUR');
    expect(changed.headers.etag).not.toBe(etag);
    expect((await page('/p/tehla', changed.headers.etag as string)).statusCode).toBe(304);
  });

  it('gets the new page after a stock change of its product or of a product it shows a tile of', async () => {
    const { etag } = await revalidate('/p/tehla');
    products.get(41)!.stock = 4;
    catalogChanges.record({ kind: 'products', ids: [41] });
    const changed = await page('/p/tehla', etag);
    expect(changed.statusCode).toBe(200);
    expect(changed.body).toContain('tehla 13.50 EUR, 4 ks');
    const next = changed.headers.etag as string;
    expect(next).not.toBe(etag);
    catalogChanges.record({ kind: 'products', ids: [42] });
    expect((await page('/p/tehla', next)).statusCode).toBe(200);
  });

  it('gets the new page after a release', async () => {
    const { etag } = await revalidate('/p/tvarnica');
    writeRegistry('r2');
    const released = await page('/p/tvarnica', etag);
    expect(released.statusCode).toBe(200);
    expect(released.body).toContain('"revision":"r2"');
    expect(released.headers.etag).not.toBe(etag);
  });

  it("gets the new page when the header's opening-hours text changes", async () => {
    // Monday 15:29:50 in Bratislava, then 15:30:10: only the clock moves.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.UTC(2026, 10, 23, 14, 29, 50) });
    const { first, etag } = await revalidate('/p/tehla');
    expect(first.body).toContain('Dnes otvorené do 15:30');
    vi.setSystemTime(Date.UTC(2026, 10, 23, 14, 30, 10));
    const evening = await page('/p/tehla', etag);
    expect(evening.statusCode).toBe(200);
    expect(evening.body).toContain('Zajtra otvorené od 08:00');
    expect(evening.headers.etag).not.toBe(etag);
  });

  it('is rendered when the tag is unknown, malformed or of another page', async () => {
    const { etag } = await revalidate('/p/tehla');
    for (const tag of ['W/"nope.0.0"', '*', 'garbage', etag.replace('W/', '')]) {
      expect((await page('/p/tehla', tag)).statusCode).toBe(200);
    }
    expect((await page('/p/tvarnica', etag)).statusCode).toBe(200);
  });
});
