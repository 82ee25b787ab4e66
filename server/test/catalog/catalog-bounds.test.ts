/**
 * Bounded work per catalog and search request: too many filters, values or brands are refused in
 * milliseconds with a Slovak 400, the limits themselves are answered, unknown or non-filterable
 * attributes cost one query for all of them, the facets run a bounded number of queries, and a
 * request at the limit does not keep another shopper waiting.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KyselyPlugin } from 'kysely';
import type { Db } from '../../src/db/database.ts';
import { LISTING_LIMITS, SEARCH_LIMITS } from '@shop/shared-kernel/schemas';
import { CatalogRepository } from '../../src/domains/catalog/products/repository/catalog.repository.ts';
import { LIMIT_MESSAGES, toProductFilter } from '../../src/domains/catalog/products/listing-filter.service.ts';
import { expectErrorShape, startTestApi, type TestApi } from '../helpers/test-api.ts';

let api: TestApi;
/** Filterable attributes of the seed: string ones with their values, numeric ones with their range. */
let stringAttrs: { attrId: number; values: string[] }[];
let numericAttrs: number[];
let hiddenAttr: number;
let brandUrls: string[];

beforeAll(async () => {
  api = await startTestApi({ responseCache: false });
  const attrs = await api.db.selectFrom('attributes').select(['attr_id', 'use_attr']).orderBy('attr_id').execute();
  const strings = await api.db
    .selectFrom('attribute_values')
    .select(['attr_id', 'av_string'])
    .where('av_string', 'is not', null)
    .groupBy(['attr_id', 'av_string'])
    .orderBy('attr_id')
    .orderBy('av_string')
    .execute();
  const filterable = attrs.filter((a) => a.use_attr === 1).map((a) => a.attr_id);
  stringAttrs = filterable
    .map((attrId) => ({
      attrId,
      values: strings
        .filter((s) => s.attr_id === attrId)
        .map((s) => s.av_string!)
        .slice(0, LISTING_LIMITS.valuesPerFilter),
    }))
    .filter((a) => a.values.length > 0);
  numericAttrs = filterable.filter((id) => !stringAttrs.some((a) => a.attrId === id));
  hiddenAttr = attrs.find((a) => a.use_attr === 0)!.attr_id;
  brandUrls = (await api.db.selectFrom('brands').select('b_url').orderBy('b_url').execute()).map((b) => b.b_url);
});
afterAll(async () => {
  await api?.close();
});

const enc = encodeURIComponent;
const join = (values: string[]) => enc(values.join('|'));

const timed = async (path: string) => {
  const started = performance.now();
  const res = await api.get(path);
  return { ...res, ms: performance.now() - started };
};

async function refused(path: string, message: string | RegExp) {
  const res = await timed(path);
  expect(res.status, path.slice(0, 200)).toBe(400);
  expectErrorShape(res.body, 'validation_failed');
  if (typeof message === 'string') expect(res.body.error.message).toBe(message);
  else expect(res.body.error.message).toMatch(message);
  expect(res.ms).toBeLessThan(1000);
}

/** Every filterable attribute of the seed (wide ranges, all values), padded with unknown ids to the limit. */
function filtersAtTheLimit(): string[] {
  const known = [...stringAttrs.map((a) => `f${a.attrId}=${join(a.values)}`), ...numericAttrs.map((id) => `r${id}=0-999999999`)];
  const unknown = Array.from({ length: LISTING_LIMITS.attributeFilters - known.length }, (_, i) => `f${900_000 + i}=x`);
  return [...known, ...unknown];
}

/** A database handle that counts the queries run through it (one result each; subqueries are part of their query). */
function counting(db: Db) {
  let queries = 0;
  const plugin: KyselyPlugin = {
    transformQuery: (args) => args.node,
    transformResult: async (args) => {
      queries++;
      return args.result;
    },
  };
  return { db: db.withPlugin(plugin), queries: () => queries };
}

describe('catalog request limits', () => {
  it.each(['/api/products/facets', '/api/products'])('1,200 attribute filters on %s: 400 in milliseconds', async (path) => {
    const query = Array.from({ length: 1200 }, (_, i) => `f${i + 1}=a`).join('&');
    await refused(`${path}?category=hruba-stavba&${query}`, /^Neplatná požiadavka: príliš veľa hodnôt/);
    // The same filter 1,200 times over is refused as well.
    await refused(`${path}?${Array.from({ length: 1200 }, () => 'f1=a').join('&')}`, /nesprávna hodnota querystring\.f1/);
  });

  it('one attribute filter more than the limit, one value more, one brand more: 400 with a Slovak message', async () => {
    expect(stringAttrs.length + numericAttrs.length).toBeLessThanOrEqual(LISTING_LIMITS.attributeFilters); // the panel's filters all fit
    const filters = Array.from({ length: LISTING_LIMITS.attributeFilters + 1 }, (_, i) => `f${i + 1}=a`).join('&');
    for (const path of ['/api/products', '/api/products/facets']) {
      await refused(`${path}?${filters}`, 'Príliš veľa filtrov naraz (najviac 20). Zrušte niektoré filtre.');
      const values = Array.from({ length: LISTING_LIMITS.valuesPerFilter + 1 }, (_, i) => `v${i}`);
      await refused(`${path}?f${stringAttrs[0]!.attrId}=${join(values)}`, 'Príliš veľa hodnôt jedného filtra (najviac 30).');
      // Refused before the attribute is looked up: an unknown attribute asks for no less.
      await refused(`${path}?f999999=${join(values)}`, LIMIT_MESSAGES.valuesPerFilter);
      await refused(
        `${path}?f${stringAttrs[0]!.attrId}=${'x'.repeat(LISTING_LIMITS.valueLength + 1)}`,
        'Hodnota filtra je príliš dlhá (najviac 100 znakov).',
      );
      const brands = [...brandUrls, ...Array.from({ length: LISTING_LIMITS.brands + 1 - brandUrls.length }, (_, i) => `znacka-${i}`)];
      await refused(`${path}?brands=${join(brands)}`, 'Príliš veľa značiek naraz (najviac 50).');
    }
  });

  it('the limits themselves are answered, and unknown or non-filterable attributes are ignored', async () => {
    const atLimit = filtersAtTheLimit();
    expect(atLimit).toHaveLength(LISTING_LIMITS.attributeFilters);
    const list = await api.get(`/api/products?${atLimit.join('&')}`);
    expect(list.status).toBe(200);
    const facets = await api.get(`/api/products/facets?${atLimit.join('&')}`);
    expect(facets.status).toBe(200);
    // The unknown attribute ids change nothing: the same answer as with the known filters alone.
    const knownOnly = atLimit.filter((f) => !/^f9\d{5}=/.test(f)).join('&');
    expect((await api.get(`/api/products/facets?${knownOnly}`)).body).toEqual(facets.body);

    const brands = [...brandUrls, ...Array.from({ length: LISTING_LIMITS.brands - brandUrls.length }, (_, i) => `znacka-${i}`)];
    const values = Array.from({ length: LISTING_LIMITS.valuesPerFilter }, (_, i) => `h${i}`);
    const full = await api.get(
      `/api/products?brands=${join(brands)}&avail=in_stock|in_stock|to_order&f${stringAttrs[0]!.attrId}=${join(values)}`,
    );
    expect(full.status).toBe(200);
    expect(full.body.meta.total).toBe(0); // values nobody has

    // The largest numbers the range filters take are past the 32-bit price and attribute columns.
    const widest = await api.get(`/api/products?price=0-999999999,999&r${numericAttrs[0]}=0-999999999`);
    expect(widest.status).toBe(200);
    const beyond = await api.get(`/api/products/facets?price=999999999-&r${numericAttrs[0]}=999999999-`);
    expect(beyond.status).toBe(200);

    const plain = await api.get('/api/products?category=hruba-stavba');
    const unknown = Array.from({ length: LISTING_LIMITS.attributeFilters - 1 }, (_, i) => `r${900_000 + i}=1-2`);
    const ignored = await api.get(`/api/products?category=hruba-stavba&f${hiddenAttr}=x&${unknown.join('&')}`);
    expect(ignored.body.meta.total).toBe(plain.body.meta.total);
  });

  it('a listing and its facets run a bounded number of queries, unknown attributes one query for all', async () => {
    const tree = await new CatalogRepository(api.db).categoryTree();
    const query = Object.fromEntries(filtersAtTheLimit().map((pair) => pair.split('=').map(decodeURIComponent) as [string, string]));
    const reading = counting(api.db);
    const filter = await toProductFilter(new CatalogRepository(reading.db), tree, { ...query, brands: brandUrls.slice(0, 3).join('|') });
    expect(reading.queries()).toBe(2); // the brands, and every attribute id at once
    const active = (filter.attrValues?.length ?? 0) + (filter.attrRanges?.length ?? 0);
    expect(active).toBe(stringAttrs.length + numericAttrs.length);

    // The facets at the limit, of every category: once the listing index holds them, one query (the categories' revisions) whatever the filter.
    const facets = counting(api.db);
    const repository = new CatalogRepository(facets.db);
    const first = await repository.facets(filter);
    const loading = facets.queries();
    expect(await repository.facets(filter)).toEqual(first);
    expect(facets.queries() - loading).toBe(1);
  });

  it('while a request at the limit runs, another shopper is answered: none holds the event loop long', async () => {
    const filters = filtersAtTheLimit().join('&');
    // The server runs in this process: how long its event loop was held is what another shopper waits
    // for (the answers' own times add up everything the machine ran meanwhile).
    const held = monitorEventLoopDelay({ resolution: 5 });
    held.enable();
    const [heavyList, heavyFacets, other] = await Promise.all([
      timed(`/api/products?${filters}`),
      timed(`/api/products/facets?${filters}`),
      timed('/api/home'),
    ]);
    held.disable();
    expect(heavyList.status).toBe(200);
    expect(heavyFacets.status).toBe(200);
    expect(other.status).toBe(200);
    expect(held.max / 1e6).toBeLessThan(1000);
  });
});

describe('search request limits', () => {
  it('refuses a text, a page or a parameter list past the limits, and answers at them', async () => {
    for (const path of ['/api/search', '/api/search/suggest']) {
      const tooLong = await timed(`${path}?q=${enc('tehla '.repeat(40).slice(0, SEARCH_LIMITS.textLength + 1))}`);
      expect(tooLong.status).toBe(400);
      expectErrorShape(tooLong.body, 'validation_failed');
      expect(tooLong.ms).toBeLessThan(1000);
      const atLimit = await api.get(`${path}?q=${enc('tehla '.repeat(40).slice(0, SEARCH_LIMITS.textLength))}`);
      expect(atLimit.status).toBe(200);
      const repeated = await api.get(`${path}?${Array.from({ length: 1200 }, () => 'q=tehla').join('&')}`);
      expect(repeated.status).toBe(400);
      expectErrorShape(repeated.body, 'validation_failed');
      const flood = await timed(`${path}?q=tehla&${Array.from({ length: 1200 }, (_, i) => `x${i}=a`).join('&')}`);
      expect(flood.status).toBe(400);
      expect(flood.body.error.message).toBe(`Neplatná požiadavka: príliš veľa hodnôt (najviac ${SEARCH_LIMITS.parameters}).`);
      expect(flood.ms).toBeLessThan(1000);
    }
    expect((await api.get(`/api/search?q=tehla&page=${SEARCH_LIMITS.page + 1}`)).status).toBe(400);
    const lastPage = await api.get(`/api/search?q=tehla&page=${SEARCH_LIMITS.page}`);
    expect(lastPage.status).toBe(200);
    expect(lastPage.body.data).toEqual([]);
  });
});
