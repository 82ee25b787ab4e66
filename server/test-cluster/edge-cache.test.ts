/**
 * nginx keeps the public pages (tools/scripts/topology.mjs): a page is the same for every anonymous
 * visitor, so a second one is answered by nginx alone; a price change is seen through nginx within
 * the bound the servers' Cache-Control sets (s-maxage + stale-while-revalidate, docs/operations.md),
 * as a release is (releases-through-nginx.test.ts); an answer that is one visitor's own is never
 * given to another.
 */
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { PAGE_CACHE_MS } from '../src/web/shell-host.ts';
import { changedFrom } from './helpers/changed-from.ts';
import {
  BOUND_MS,
  currentRevision,
  nextCatalogBuild,
  page,
  pollUntil,
  release,
  revisionOf,
  SEEN_BY_SERVERS_MS,
} from './helpers/edge-pages.ts';
import { CATALOG_CHANNEL } from '../src/infra/cache/shared-state.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The cluster's Redis, where catalog changes are announced (global-setup.mjs). */
    clusterRedisUrl: string;
  }
}

const cluster = inject('cluster');
const redisUrl = inject('clusterRedisUrl');
let db: pg.Pool;
beforeAll(() => {
  db = new pg.Pool({ connectionString: cluster.databaseUrl, max: 2 });
});
afterAll(async () => {
  await db?.end();
});

/**
 * The web servers' answers for home pages by outcome (rendered, cached, revalidated, …), both servers
 * together: only the page kind a test asks for, as the integrity watch's header check renders the basket.
 */
async function serverAnswers(): Promise<Record<string, number>> {
  const outcomes: Record<string, number> = {};
  for (const server of cluster.web) {
    const res = await fetch(`${server}/api/metrics`, { headers: { authorization: `Bearer ${cluster.metricsToken}` } });
    expect(res.status).toBe(200);
    for (const match of (await res.text()).matchAll(/^shop_server_renders_total\{[^}]*outcome="(\w+)"[^}]*page="home"[^}]*\} (\d+)/gm)) {
      outcomes[match[1]!] = (outcomes[match[1]!] ?? 0) + Number(match[2]);
    }
  }
  return outcomes;
}

/** The product's price the page shows to crawlers (its structured data). */
const priceOf = (html: string) => /"price":"([\d.]+)"/.exec(html)?.[1];

/** The home page answers all web servers gave so far (rendered, from their page cache, or left to the browser). */
async function pagesAnsweredByServers(): Promise<number> {
  return Object.values(await serverAnswers()).reduce((sum, count) => sum + count, 0);
}

describe('nginx keeps public pages', () => {
  it('a second anonymous visitor of a page is answered by nginx without reaching a web server', async () => {
    const path = `/?edge-first=${Date.now()}`;
    const first = await page(path);
    expect(first.status).toBe(200);
    expect(first.edge).toBe('MISS');
    expect(first.cacheControl).toBe(`public, max-age=0, s-maxage=${PAGE_CACHE_MS / 1000}, stale-while-revalidate=${PAGE_CACHE_MS / 1000}`);
    const before = await pagesAnsweredByServers();
    // Another visitor: consent already decided and a canary bucket, as a returning shopper's browser sends.
    const second = await page(path, { cookie: 'cookie_required=true; cookie_analytics=false; shop_canary=17' });
    expect(second.edge).toBe('HIT');
    expect(second.html).toBe(first.html);
    expect(await pagesAnsweredByServers()).toBe(before);
  });

  it('an expired page is revalidated: the server confirms its ETag without a render, nginx keeps its body', async () => {
    const path = `/?edge-revalidate=${Date.now()}`;
    const first = await page(path);
    expect(first.edge).toBe('MISS');
    expect(first.etag).toMatch(/^W\/"/);
    const before = await serverAnswers();
    // Past s-maxage nginx answers its copy stale and asks the server again with the ETag, in the background …
    const stale = await pollUntil(path, (p) => p.edge === 'STALE' || p.edge === 'UPDATING', 3 * PAGE_CACHE_MS);
    expect(['STALE', 'UPDATING']).toContain(stale.last.edge);
    // … and the 304 makes its copy fresh again: the same body and tag, without a render.
    const fresh = await pollUntil(path, (p) => p.edge === 'HIT', 3 * PAGE_CACHE_MS);
    expect(fresh.last.edge).toBe('HIT');
    expect(fresh.last.html).toBe(first.html);
    expect(fresh.last.etag).toBe(first.etag);
    const after = await serverAnswers();
    expect((after.revalidated ?? 0) - (before.revalidated ?? 0)).toBeGreaterThanOrEqual(1);
    expect(after.rendered ?? 0).toBe(before.rendered ?? 0);
    expect(after.cached ?? 0).toBe(before.cached ?? 0);
  });

  it('a price change is seen through nginx within the bound', async () => {
    const { rows } = await db.query<{ p_url: string; v_id: number; v_sell_price: number }>(
      `select p.p_url, v.v_id, v.v_sell_price from products p join variants v on v.v_id = p.p_tile_v_id
       where p.p_variant_count = 1 and v.v_sale = 0 order by p.p_id limit 1`,
    );
    const product = rows[0]!;
    const path = `/p/${product.p_url}`;
    const old = await pollUntil(path, (p) => p.edge === 'HIT', 30_000);
    expect(old.last.edge).toBe('HIT');
    const oldPrice = priceOf(old.last.html);
    expect(oldPrice).toBeDefined();

    // The catalog is written, and the change announced to every server as every writer of catalog rows does.
    await db.query('update variants set v_sell_price = v_sell_price + 10000 where v_id = $1', [product.v_id]);
    const redis = new Redis(redisUrl);
    try {
      await redis.publish(CATALOG_CHANNEL, JSON.stringify({ from: 'edge-cache-test', change: { kind: 'all' } }));
    } finally {
      redis.disconnect();
    }
    const changed = Date.now();
    const seen = await pollUntil(path, (p) => priceOf(p.html) !== oldPrice, BOUND_MS + SEEN_BY_SERVERS_MS + 20_000);
    expect(priceOf(seen.last.html)).not.toBe(oldPrice);
    expect(seen.at - changed).toBeLessThanOrEqual(BOUND_MS + SEEN_BY_SERVERS_MS);
    // From then on every visitor gets the new price: the old page is not kept anywhere.
    for (let i = 0; i < 3; i++) expect(priceOf((await page(path)).html)).toBe(priceOf(seen.last.html));
  });

  it("an answer with a cookie or one visitor's own page is never given to another visitor", async () => {
    const path = `/?edge-own=${Date.now()}`;
    // Ending a preview sets a cookie: each visitor gets the answer from a server, with the cookie.
    for (let i = 0; i < 2; i++) {
      const ended = await page('/preview?end=1');
      expect(ended.status).toBe(303);
      expect(ended.setCookie.join()).toContain('shop_preview=;');
      expect(ended.edge).not.toMatch(/HIT|STALE|UPDATING/);
    }

    // A preview: this browser's page shows the previewed version; nobody else's does, kept or not.
    const output = release([
      'deploy',
      'catalog',
      '--dist',
      nextCatalogBuild('catalog-edge-preview'),
      '--no-build',
      '--preview',
      '--reason',
      'edge cache test',
    ]);
    const token = /\/preview\?token=([\w-]+)/.exec(output)?.[1];
    expect(token).toBeDefined();
    // The link opens in one browser: it gets a cookie of its own, which is what the preview rides on.
    const opened = await page(`/preview?token=${token}`);
    expect(opened.status).toBe(303);
    const held = /(?:__Host-)?shop_preview=[\w-]+/.exec(opened.setCookie.join())?.[0];
    expect(held).toBeDefined();
    const previewed = await page(path, { cookie: held! });
    expect(previewed.cacheControl).toBe('private, no-cache');
    expect(previewed.html).toContain('"preview":{"area":"catalog"');
    const other = await page(path);
    expect(other.cacheControl).toMatch(/^public/);
    expect(other.html).toContain('"preview":null');

    // A canary: the servers answer privately (the page depends on the browser's bucket), so nginx
    // keeps nothing until it ends, whatever the cookies.
    const beforeCanary = await currentRevision();
    release([
      'deploy',
      'catalog',
      '--dist',
      nextCatalogBuild('catalog-edge-canary'),
      '--no-build',
      '--canary',
      '50',
      '--reason',
      'edge cache test',
    ]);
    const canary = await changedFrom(beforeCanary, currentRevision);
    const during = await pollUntil(path, (p) => revisionOf(p.html) === canary, BOUND_MS + SEEN_BY_SERVERS_MS + 20_000);
    expect(during.last.cacheControl).toBe('private, no-cache');
    for (const cookie of ['', 'shop_canary=3', 'shop_canary=97', '', 'shop_canary=3']) {
      const answer = await page(path, cookie ? { cookie } : {});
      expect(answer.cacheControl).toBe('private, no-cache');
      // From a server: nothing kept (MISS), or only the page from before the canary, expired.
      expect(['MISS', 'EXPIRED']).toContain(answer.edge);
    }
    release(['abort', 'catalog', '--reason', 'edge cache test']);
    const stable = await changedFrom(canary, currentRevision);
    const public_ = await pollUntil(path, (p) => p.edge === 'HIT' && revisionOf(p.html) === stable, BOUND_MS + SEEN_BY_SERVERS_MS + 20_000);
    expect(public_.last.edge).toBe('HIT');
    expect(public_.last.cacheControl).toMatch(/^public/);
  });
});
