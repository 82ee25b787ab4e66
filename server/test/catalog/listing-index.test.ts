/**
 * A filtered category listing is read from memory (repository/listing-index.ts): its facets, total
 * and pages must equal the ones read in SQL (facets.ts, listingPageInSql: the filter's and the
 * orders' reference meaning) for every category under many filters and their combinations, in
 * every sort, and follow every kind of catalog change at the next request. Runs on SQLite and,
 * with DATABASE_URL, on PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Availability } from '@shop/shared-kernel/contract';
import { PAGE_SIZE } from '@shop/shared-kernel/rules';
import { CatalogRepository, listingPageInSql } from '../../src/domains/catalog/products/repository/catalog.repository.ts';
import { listedInMemory, ListingIndex } from '../../src/domains/catalog/products/repository/listing-index.ts';
import { loadCatalogNames } from '../../src/domains/catalog/products/repository/catalog-names.ts';
import { listingFacets } from '../helpers/facets-in-sql.ts';
import type { ProductFilter } from '../../src/domains/catalog/products/repository/product-filter.ts';
import { catalogChanges, type CatalogChange } from '../helpers/catalog-changes.ts';
import { comparedOn, POSTGRES_STRIDE } from '../helpers/engine-sample.ts';
import { startTestApi, type TestApi } from '../helpers/test-api.ts';
import { PRODUCT_SORTS } from '../../src/domains/catalog/products/repository/listing-order.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ responseCache: false });
});
afterAll(async () => {
  await api?.close();
});

/** A small deterministic generator, so a failure names a filter that can be run again. */
function random(seed: number) {
  let state = seed;
  const next = () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
  return {
    next,
    pick: <T>(items: T[]): T => items[Math.floor(next() * items.length)]!,
    some: <T>(items: T[]): T[] => items.filter(() => next() < 0.4),
  };
}

/** Filters over one category's subtree, drawn from its own data: prices, brands, availabilities, attribute values and ranges, alone and together, in the sale or not. */
async function filtersFor(categoryIds: number[], seed: number, count: number): Promise<ProductFilter[]> {
  const products = await api.db
    .selectFrom('products')
    .select(['p_id', 'b_id', 'p_price'])
    .where('cat_id', 'in', categoryIds)
    .where('p_price', 'is not', null)
    .execute();
  if (products.length === 0) return [];
  const values = await api.db
    .selectFrom('attribute_values as av')
    .innerJoin('products as p', 'p.p_id', 'av.p_id')
    .select(['av.attr_id', 'av.av_string', 'av.av_integer'])
    .where('p.cat_id', 'in', categoryIds)
    .execute();
  const rng = random(seed);
  const prices = products.map((row) => Number(row.p_price)).sort((a, b) => a - b);
  const brands = [...new Set(products.map((row) => row.b_id).filter((id): id is number => id !== null))];
  const strings = values.filter((row) => row.av_string !== null);
  const integers = values.filter((row) => row.av_string === null && row.av_integer !== null);
  const availability: Availability[] = ['in_stock', 'to_order', 'unavailable'];
  const parts: (() => ProductFilter)[] = [
    () => ({ priceMin: rng.pick(prices) }),
    () => ({ priceMax: rng.pick(prices) }),
    () => {
      const [a, b] = [rng.pick(prices), rng.pick(prices)].sort((x, y) => x - y);
      return { priceMin: a, priceMax: b };
    },
    () => ({ brandIds: brands.length > 0 ? [rng.pick(brands), ...rng.some(brands)] : [] }),
    () => ({ availability: [rng.pick(availability), ...rng.some(availability)] }),
    () => {
      if (strings.length === 0) return {};
      const attrId = rng.pick(strings).attr_id;
      const ofAttr = strings.filter((row) => row.attr_id === attrId).map((row) => row.av_string!);
      return {
        attrValues: [
          { attrId, values: [...new Set([rng.pick(ofAttr), ...rng.some(ofAttr), ...(rng.next() < 0.2 ? ['neexistujúca hodnota'] : [])])] },
        ],
      };
    },
    () => {
      if (integers.length === 0) return {};
      const attrId = rng.pick(integers).attr_id;
      const ofAttr = integers.filter((row) => row.attr_id === attrId).map((row) => Number(row.av_integer));
      const [a, b] = [rng.pick(ofAttr), rng.pick(ofAttr)].sort((x, y) => x - y);
      return { attrRanges: [{ attrId, min: rng.next() < 0.2 ? null : a!, max: rng.next() < 0.2 ? null : b! }] };
    },
  ];
  const filters: ProductFilter[] = [];
  for (let i = 0; i < count; i++) {
    const filter: ProductFilter = { categoryIds, saleOnly: false };
    for (let n = 1 + Math.floor(rng.next() * 3); n > 0; n--) {
      const part = rng.pick(parts)();
      filter.attrValues = [...(filter.attrValues ?? []), ...(part.attrValues ?? [])];
      filter.attrRanges = [...(filter.attrRanges ?? []), ...(part.attrRanges ?? [])];
      Object.assign(filter, { ...part, attrValues: filter.attrValues, attrRanges: filter.attrRanges });
    }
    // Now and then a brand page's own brand too, and the sale (its availability is of its discounted variants).
    if (rng.next() < 0.15 && brands.length > 0) filter.brandId = rng.pick(brands);
    if (rng.next() < 0.3) filter.saleOnly = true;
    filters.push(filter);
  }
  return filters;
}

async function subtrees(): Promise<number[][]> {
  const tree = await new CatalogRepository(api.db).categoryTree();
  const ids = (await api.db.selectFrom('categories').select('cat_id').orderBy('cat_id').execute()).map((row) => row.cat_id);
  return ids.map((id) => tree.subtreeIds(id));
}

/**
 * Every category's filtered facets and pages from `index` against SQL: the facets, and in every
 * sort the first, second and last page and the total. Returns how many filters were compared.
 */
async function expectIndexEqualsSql(
  index: ListingIndex,
  label: string,
  seed = 1,
  perCategory = 6,
  touching: number[] = [],
): Promise<number> {
  let compared = 0;
  for (const [n, categoryIds] of (await subtrees()).entries()) {
    // After a change, the subtrees holding the changed categories (the others' arrays stay as they were).
    if (touching.length > 0 && !categoryIds.some((id) => touching.includes(id))) continue;
    for (const [f, filter] of (await filtersFor(categoryIds, seed * 1000 + n, perCategory)).entries()) {
      expect(listedInMemory(filter)).toBe(true);
      if (!comparedOn(api, n * perCategory + f, seed)) continue;
      const named = `${label}: ${JSON.stringify(filter)}`;
      const inMemory = filter as ProductFilter & { categoryIds: number[] };
      expect(await index.facets(inMemory), named).toEqual(await listingFacets(api.db, filter));
      // Every sort's first and last page; one sort (in turn) also its second page and one past the end.
      for (const sort of PRODUCT_SORTS) {
        const first = await listingPageInSql(api.db, filter, sort, { limit: PAGE_SIZE, offset: 0 });
        const lastOffset = Math.max(0, Math.ceil(first.total / PAGE_SIZE) - 1) * PAGE_SIZE;
        const offsets =
          sort === PRODUCT_SORTS[compared % PRODUCT_SORTS.length] ? [0, PAGE_SIZE, lastOffset, first.total + PAGE_SIZE] : [0, lastOffset];
        for (const offset of offsets) {
          const page = { limit: PAGE_SIZE, offset };
          expect(await index.page(inMemory, sort, page), `${named}, ${sort}, from ${offset}`).toEqual(
            await listingPageInSql(api.db, filter, sort, page),
          );
        }
      }
      compared++;
    }
  }
  return compared;
}

describe('a filtered category listing read from memory', () => {
  it('are used for a category with filters, its sale too, never for a listing without a category', () => {
    expect(listedInMemory({ categoryIds: [1], priceMin: 100 })).toBe(true);
    expect(listedInMemory({ categoryIds: [1], availability: ['in_stock'], brandIds: [2] })).toBe(true);
    expect(listedInMemory({ categoryIds: [1], priceMin: 100, saleOnly: true })).toBe(true);
    expect(listedInMemory({ priceMin: 100, saleOnly: true })).toBe(false);
    expect(listedInMemory({ categoryIds: [], priceMin: 100 })).toBe(false);
    expect(listedInMemory({ brandId: 3, priceMin: 100 })).toBe(false);
  });

  // Over a hundred filtered listings, each in every sort and read in SQL too: 10 s on PostgreSQL here.
  it('equal the facets and pages read in SQL for every category under many filters, in every sort', { timeout: 60_000 }, async () => {
    const compared = await expectIndexEqualsSql(new ListingIndex(api.db, () => loadCatalogNames(api.db)), 'as seeded');
    expect(compared).toBeGreaterThan(api.dialect === 'postgres' ? 100 / POSTGRES_STRIDE : 100);
  });

  it('are what the API answers for a filtered category: facets and pages', async () => {
    const category = await api.db
      .selectFrom('categories as c')
      .innerJoin('products as p', 'p.cat_id', 'c.cat_id')
      .select(['c.cat_url', 'c.cat_id'])
      .groupBy(['c.cat_url', 'c.cat_id'])
      .orderBy((eb) => eb.fn.countAll(), 'desc')
      .executeTakeFirstOrThrow();
    const answer = await api.get(`/api/products/facets?category=${category.cat_url}&avail=in_stock&price=1-500`);
    expect(answer.status).toBe(200);
    const categoryIds = (await new CatalogRepository(api.db).categoryTree()).subtreeIds(category.cat_id);
    expect(answer.body.data).toEqual(
      await listingFacets(api.db, { categoryIds, availability: ['in_stock'], priceMin: 1000, priceMax: 500_000, saleOnly: false }),
    );
    // Disjunctive: the other availabilities still show what ticking them would add.
    expect(answer.body.data.availability.map((row: { value: string }) => row.value)).toContain('in_stock');
    expect(answer.body.data.price).not.toBeNull();
    const listing = await api.get(`/api/products?category=${category.cat_url}&avail=in_stock&price=1-500&sort=price-desc&page=2`);
    expect(listing.status).toBe(200);
    const reference = await listingPageInSql(
      api.db,
      { categoryIds, availability: ['in_stock'], priceMin: 1000, priceMax: 500_000, saleOnly: false },
      'price-desc',
      { limit: PAGE_SIZE, offset: PAGE_SIZE },
    );
    expect(listing.body.data.map((product: { p_id: number }) => product.p_id)).toEqual(reference.ids);
    expect(listing.body.meta.total).toBe(reference.total);
  });

  it('serve a listing without a category narrowed by filters (the sale, a brand page, filters alone) as every category together, equal to SQL in every sort, first, middle and last pages', async () => {
    const repository = new CatalogRepository(api.db);
    const brands = (await api.db.selectFrom('brands').select('b_id').orderBy('b_id').execute()).map((row) => row.b_id);
    const filters: ProductFilter[] = [
      { saleOnly: true, priceMin: 1_000, priceMax: 100_000 },
      { saleOnly: true, availability: ['in_stock'] },
      { saleOnly: true, brandIds: brands.slice(0, 3) },
      { brandId: brands[0]!, availability: ['to_order', 'unavailable'] },
      { brandId: brands[1]!, saleOnly: true, priceMax: 50_000 },
      { brandIds: brands.slice(1, 3), saleOnly: false },
      { priceMin: 10_000, priceMax: 20_000 },
    ];
    for (const filter of filters) {
      const { total } = await listingPageInSql(api.db, filter, 'popular', { limit: 1, offset: 0 });
      // The first pages, a page on each side of the middle and the last (a page in the second half is merged backwards).
      const middle = Math.floor(total / 2 / PAGE_SIZE) * PAGE_SIZE;
      const last = Math.max(0, Math.ceil(total / PAGE_SIZE) - 1) * PAGE_SIZE;
      for (const sort of PRODUCT_SORTS) {
        for (const offset of new Set([0, PAGE_SIZE, Math.max(0, middle - PAGE_SIZE), middle, last])) {
          const page = { limit: PAGE_SIZE, offset };
          const reference = await listingPageInSql(api.db, filter, sort, page);
          expect(reference.total, JSON.stringify(filter)).toBeGreaterThan(0);
          const listed = await repository.listProducts(filter, sort, page);
          expect(
            { ids: listed.items.map((item) => item.p_id), total: listed.total },
            `${JSON.stringify(filter)}, ${sort}, from ${offset}`,
          ).toEqual(reference);
        }
      }
    }
    const answer = await api.get('/api/products?sale=1&avail=in_stock&sort=price-asc&page=2');
    expect(answer.status).toBe(200);
    const reference = await listingPageInSql(api.db, { saleOnly: true, availability: ['in_stock'] }, 'price-asc', {
      limit: PAGE_SIZE,
      offset: PAGE_SIZE,
    });
    expect(answer.body.data.map((product: { p_id: number }) => product.p_id)).toEqual(reference.ids);
    expect(answer.body.meta.total).toBe(reference.total);
  });

  it('follow a price, a brand, an availability, an attribute value, a popularity, a sort name, a date, a category move, a new and a removed product at the next request', async () => {
    const index = new ListingIndex(api.db, () => loadCatalogNames(api.db));
    await expectIndexEqualsSql(index, 'before', 2, 3);
    const { catIds, changes: common, productId, productCatId } = await catalogChanges(api.db, 'listing-index-novy');
    // The sort columns too: they order the listing kept in memory.
    const changes = [
      ...common.slice(0, 4),
      ['popularity', () => api.db.updateTable('products').set({ p_popularity: 1_000_000 }).where('p_id', '=', productId).execute()],
      ['sort name', () => api.db.updateTable('products').set({ p_name_sort: '0 prvy podla mena' }).where('p_id', '=', productId).execute()],
      // The same date for a whole category: the newest first, ties by id, the highest first.
      [
        'date',
        () => api.db.updateTable('products').set({ p_created_at: '2999-01-01T00:00:00.000Z' }).where('cat_id', '=', productCatId).execute(),
      ],
      ...common.slice(4),
    ] satisfies CatalogChange[];
    for (const [n, [label, change]] of changes.entries()) {
      await change();
      await expectIndexEqualsSql(index, label, 3 + n, 4, catIds);
    }
  }, 180_000);

  it('are loaded for every category once a server that loads them ahead is ready, without a request', async () => {
    const lines: Record<string, unknown>[] = [];
    const warmed = await startTestApi({
      warmCatalog: true,
      logger: { level: 'info', stream: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) } },
    });
    try {
      await vi.waitFor(() => expect(lines.some((line) => line.msg === 'listing index loaded')).toBe(true), { timeout: 20_000 });
      const categories = await warmed.db
        .selectFrom('categories')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(lines.find((line) => line.msg === 'listing index loaded')?.categories).toBe(Number(categories.n));
    } finally {
      await warmed.close();
    }
    // A stopped load stops before the next category.
    expect(await new ListingIndex(api.db, () => loadCatalogNames(api.db)).warm([1, 2, 3], () => true)).toBe(0);
  });

  it('answer many shoppers asking at the same moment alike, while the category loads', async () => {
    const index = new ListingIndex(api.db, () => loadCatalogNames(api.db));
    const [categoryIds] = (await subtrees()).sort((a, b) => b.length - a.length);
    const filter = { categoryIds: categoryIds!, priceMin: 1, saleOnly: false };
    const answers = await Promise.all(Array.from({ length: 8 }, () => index.facets(filter)));
    for (const answer of answers) expect(answer).toEqual(answers[0]);
    expect(answers[0]).toEqual(await listingFacets(api.db, filter));
  });
});
