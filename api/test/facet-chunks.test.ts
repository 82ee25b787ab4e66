/**
 * On SQLite the facet counts run in parts, groups of a listing's categories or product-id ranges
 * (so no single query holds the event loop long on a large catalogue); the merged counts must
 * equal the counts of one query.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogRepository } from '../src/routes/catalog/repository/catalog.repository.ts';
import { listingFacets } from '../src/routes/catalog/repository/facets.ts';
import type { ProductFilter } from '../src/routes/catalog/repository/product-filter.ts';
import { startTestApi, type TestApi } from './helpers/test-api.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api?.close();
});

describe('facets counted in parts', () => {
  it('equal the facets counted at once, with and without filters', async () => {
    const tree = await new CatalogRepository(api.db).categoryTree();
    const attr = await api.db.selectFrom('attribute_values').select(['attr_id', 'av_string']).where('av_string', 'is not', null).orderBy('av_id').executeTakeFirstOrThrow();
    const filters: ProductFilter[] = [
      {},
      { saleOnly: true },
      { categoryIds: tree.subtreeIds(tree.roots[0]!.cat_id) },
      { categoryIds: tree.roots.flatMap((root) => tree.subtreeIds(root.cat_id)), availability: ['in_stock', 'to_order'], priceMin: 500 },
      { attrValues: [{ attrId: attr.attr_id, values: [attr.av_string!] }] },
      { priceMin: 1_000, priceMax: 50_000, availability: ['in_stock'] },
    ];
    for (const filter of filters) {
      const once = await listingFacets(api.db, filter, { chunkIds: null });
      expect(once.attributes.length, JSON.stringify(filter)).toBeGreaterThan(0);
      for (const chunkIds of [7, 37, 100]) {
        expect(await listingFacets(api.db, filter, { chunkIds }), `${JSON.stringify(filter)} in parts of ${chunkIds}`).toEqual(once);
      }
    }
  });
});
