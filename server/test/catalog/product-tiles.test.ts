/**
 * A product tile's representative variant, number of variants and deepest discount are kept in
 * products (migration product-tile-columns) by a trigger on variants: after every kind of change to
 * variants they must equal the same figures computed over the variants, and the tiles the API
 * answers must show them. Runs on SQLite and, with DATABASE_URL, on PostgreSQL (its trigger differs).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { CatalogRepository } from '../../src/domains/catalog/products/repository/catalog.repository.ts';
import { startTestApi, type TestApi } from '../helpers/test-api.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ responseCache: false });
});
afterAll(async () => {
  await api?.close();
});

/** Products whose kept tile columns differ from a recomputation over their variants (window functions). */
async function mismatches(): Promise<unknown[]> {
  const { rows } = await sql`with ranked as (
      select v.p_id, v.v_id,
        row_number() over (partition by v.p_id order by case when v.v_availability = 'unavailable' then 1 else 0 end,
          cast(v.v_sell_price as bigint) * (100 + v.v_vat) * (100000 - v.v_sale), v.v_id) as rn,
        count(*) over (partition by v.p_id) as n,
        max(v.v_sale) over (partition by v.p_id) as max_sale
      from variants v)
    select p.p_id, p.p_tile_v_id, r.v_id, p.p_variant_count, r.n, p.p_max_sale, r.max_sale
    from products p left join ranked r on r.p_id = p.p_id and r.rn = 1
    where p.p_tile_v_id is distinct from r.v_id or p.p_variant_count <> coalesce(r.n, 0) or p.p_max_sale <> coalesce(r.max_sale, 0)`.execute(
    api.db,
  );
  return rows;
}

describe('product tiles kept per product', () => {
  it('stay equal to their variants after every kind of change to the variants, and the API shows them', async () => {
    expect(await mismatches()).toEqual([]);
    const product = await api.db
      .selectFrom('products')
      .select(['p_id', 'p_tile_v_id', 'p_variant_count'])
      .where('p_variant_count', '>=', 2)
      .where('p_max_sale', '=', 0)
      .orderBy('p_id')
      .executeTakeFirstOrThrow();
    const catalog = new CatalogRepository(api.db);
    const tile = async () => (await catalog.summaries([product.p_id]))[0]!;
    const other = await api.db
      .selectFrom('products')
      .select('p_id')
      .where('p_id', '<>', product.p_id)
      .orderBy('p_id')
      .executeTakeFirstOrThrow();
    const representative = product.p_tile_v_id!;
    let added = 0;

    const changes: [string, () => Promise<unknown>, () => Promise<void>][] = [
      [
        'the representative variant becomes unavailable',
        () => api.db.updateTable('variants').set({ v_availability: 'unavailable' }).where('v_id', '=', representative).execute(),
        async () => expect((await tile()).variant.v_id).not.toBe(representative),
      ],
      [
        'it is available again',
        () => api.db.updateTable('variants').set({ v_availability: 'in_stock' }).where('v_id', '=', representative).execute(),
        async () => expect((await tile()).variant.v_id).toBe(representative),
      ],
      [
        'a variant goes on sale',
        () =>
          api.db
            .updateTable('variants')
            .set({ v_sale: 25_000 })
            .where('p_id', '=', product.p_id)
            .where('v_id', '<>', representative)
            .execute(),
        async () => expect((await tile()).saleUpTo).toBe(25),
      ],
      [
        'a cheaper variant is added',
        async () => {
          const { v_id } = await api.db
            .insertInto('variants')
            .values({
              p_id: product.p_id,
              v_code: 'TILE-TEST-1',
              v_name: 'Lacnejší',
              v_sell_price: 1,
              v_unit: 'ks',
              v_base_amount: null,
              v_base_unit: null,
            })
            .returning('v_id')
            .executeTakeFirstOrThrow();
          added = v_id;
        },
        async () => {
          const shown = await tile();
          expect(shown.variant.v_id).toBe(added);
          expect(shown.variantCount).toBe(product.p_variant_count + 1);
        },
      ],
      [
        'its price rises above the others',
        () => api.db.updateTable('variants').set({ v_sell_price: 999_999_999 }).where('v_id', '=', added).execute(),
        async () => expect((await tile()).variant.v_id).not.toBe(added),
      ],
      [
        'it moves to another product',
        () => api.db.updateTable('variants').set({ p_id: other.p_id }).where('v_id', '=', added).execute(),
        async () => expect((await tile()).variantCount).toBe(product.p_variant_count),
      ],
      ['it is removed', () => api.db.deleteFrom('variants').where('v_id', '=', added).execute(), async () => {}],
      [
        'the sale ends',
        () => api.db.updateTable('variants').set({ v_sale: 0 }).where('p_id', '=', product.p_id).execute(),
        async () => expect((await tile()).saleUpTo).toBe(0),
      ],
    ];
    for (const [what, change, check] of changes) {
      await change();
      expect(await mismatches(), what).toEqual([]);
      await check();
    }
    expect((await tile()).variant.v_id).toBe(representative);
    const answer = await api.get<{ data: { p_id: number; variant: { v_id: number }; variantCount: number }[] }>(
      `/api/products?sort=newest`,
    );
    expect(answer.status).toBe(200);
    const kept = await api.db
      .selectFrom('products')
      .select(['p_id', 'p_tile_v_id', 'p_variant_count'])
      .where(
        'p_id',
        'in',
        answer.body.data.map((p) => p.p_id),
      )
      .execute();
    const byId = new Map(kept.map((p) => [p.p_id, p]));
    for (const shown of answer.body.data) {
      expect(shown.variant.v_id).toBe(byId.get(shown.p_id)!.p_tile_v_id);
      expect(shown.variantCount).toBe(byId.get(shown.p_id)!.p_variant_count);
    }
  });
});
