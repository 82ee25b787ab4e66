import { PostgresAdapter, sql } from 'kysely';
import type { Kysely } from 'kysely';

// Frozen: never edit a migration that has run; add a new one.
//
// A product tile (listings, search, related products) shows the product's representative variant,
// its number of variants and their deepest discount. They were found per request with window
// functions over all the variants of the page's products; now products keeps them, set by a
// trigger on variants whenever a variant is added, removed, or changes price, VAT, sale,
// availability or product, so a page of tiles reads one product row and one variant row each.
// The representative order is p_price's (migration catalog-listing-and-search): available
// variants first, then the cheapest unit price with VAT after sale, then the oldest.

const isPg = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;

const PRICE_KEY = `cast(v.v_sell_price as bigint) * (100 + v.v_vat) * (100000 - v.v_sale)`;
const REPRESENTATIVE_ORDER = `case when v.v_availability = 'unavailable' then 1 else 0 end, ${PRICE_KEY}, v.v_id`;

/** Sets the tile columns of the products matching `where` (a condition on `products`). */
const refreshTiles = (where: string) => `
  update products set
    p_tile_v_id = (select v.v_id from variants v where v.p_id = products.p_id order by ${REPRESENTATIVE_ORDER} limit 1),
    p_variant_count = (select count(*) from variants v where v.p_id = products.p_id),
    p_max_sale = coalesce((select max(v.v_sale) from variants v where v.p_id = products.p_id), 0)
  where ${where}`;

const CHANGED_COLUMNS = 'v_sell_price, v_vat, v_sale, v_availability, p_id';

export async function up(db: Kysely<any>): Promise<void> {
  const run = (text: string) => sql.raw(text).execute(db);
  await db.schema.alterTable('products').addColumn('p_tile_v_id', 'integer').execute();
  await db.schema.alterTable('products').addColumn('p_variant_count', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('products').addColumn('p_max_sale', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  if (isPg(db)) {
    await run(`create function shop_refresh_product_tile(pid integer) returns void language sql as $$
      ${refreshTiles('p_id = pid')} $$`);
    await run(`create function shop_variants_tile_changed() returns trigger language plpgsql as $$
      begin
        if tg_op in ('UPDATE', 'DELETE') then perform shop_refresh_product_tile(old.p_id); end if;
        if tg_op in ('INSERT', 'UPDATE') and (tg_op = 'INSERT' or new.p_id is distinct from old.p_id) then
          perform shop_refresh_product_tile(new.p_id);
        end if;
        return null;
      end $$`);
    await run(`create trigger variants_refresh_tile after insert or delete or update of ${CHANGED_COLUMNS}
      on variants for each row execute function shop_variants_tile_changed()`);
  } else {
    await run(`create trigger variants_refresh_tile_insert after insert on variants begin ${refreshTiles('p_id = new.p_id')}; end`);
    await run(`create trigger variants_refresh_tile_delete after delete on variants begin ${refreshTiles('p_id = old.p_id')}; end`);
    await run(`create trigger variants_refresh_tile_update after update of ${CHANGED_COLUMNS} on variants begin
      ${refreshTiles('p_id in (old.p_id, new.p_id)')}; end`);
  }
  await run(refreshTiles('1 = 1'));
}

export async function down(db: Kysely<any>): Promise<void> {
  const run = (text: string) => sql.raw(text).execute(db);
  if (isPg(db)) {
    await run('drop trigger if exists variants_refresh_tile on variants');
    await run('drop function if exists shop_variants_tile_changed()');
    await run('drop function if exists shop_refresh_product_tile(integer)');
  } else {
    for (const trigger of ['variants_refresh_tile_insert', 'variants_refresh_tile_delete', 'variants_refresh_tile_update']) {
      await run(`drop trigger if exists ${trigger}`);
    }
  }
  for (const column of ['p_max_sale', 'p_variant_count', 'p_tile_v_id']) await db.schema.alterTable('products').dropColumn(column).execute();
}
