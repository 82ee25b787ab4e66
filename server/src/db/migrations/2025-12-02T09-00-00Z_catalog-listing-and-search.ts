import { PostgresAdapter, sql } from 'kysely';
import type { ColumnDefinitionBuilder, Kysely } from 'kysely';

// Frozen: never edit a migration that has run; add a new one.
//
// Catalogue listing, facets, price history and search:
// - products.p_price / p_sale_price: the tile price (with VAT, after sale, whole cents, thousandths)
//   of the product's representative variant and of its representative sale variant, kept current
//   by triggers on variants, so listings sort and filter by price on an index;
// - price_history: every price a variant had (with VAT, after sale), for the lowest price of the
//   last 30 days shown next to a discounted price; a trigger records every price change;
// - product_accessories: required accessories and components added to the basket with a product;
// - product_search: full text over name, brand, categories and description, insensitive to case and
//   diacritics (SQLite FTS5 with unicode61 remove_diacritics 2; PostgreSQL tsvector over unaccent);
// - indexes for listings and facets.

const isPg = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;

function generatedId(db: Kysely<any>) {
  const pg = isPg(db);
  return (col: ColumnDefinitionBuilder) =>
    pg ? col.primaryKey().generatedByDefaultAsIdentity() : col.primaryKey().autoIncrement();
}

/** Unit price with VAT after sale, rounded half up to whole cents, in thousandths (requirements R9.4). */
const GROSS = (v: string) =>
  `((cast(${v}.v_sell_price as bigint) * (100 + ${v}.v_vat) * (100000 - ${v}.v_sale) + 50000000) / 100000000) * 10`;
/** The same price unrounded, for ordering like the API's tiles do. */
const PRICE_KEY = (v: string) => `cast(${v}.v_sell_price as bigint) * (100 + ${v}.v_vat) * (100000 - ${v}.v_sale)`;
const REPRESENTATIVE_ORDER = `case when v.v_availability = 'unavailable' then 1 else 0 end, ${PRICE_KEY('v')}, v.v_id`;

/** Sets p_price and p_sale_price of the products matching `where` (a condition on `products`). */
const refreshPrices = (where: string) => `
  update products set
    p_price = (select ${GROSS('v')} from variants v where v.p_id = products.p_id order by ${REPRESENTATIVE_ORDER} limit 1),
    p_sale_price = (select ${GROSS('v')} from variants v where v.p_id = products.p_id and v.v_sale > 0 order by ${REPRESENTATIVE_ORDER} limit 1)
  where ${where}`;

/** Names of the category and its two ancestors (the tree is three levels deep), for search. */
const CATEGORY_TEXT = (catId: string) => `(
  select c.cat_name || coalesce(' ' || c1.cat_name, '') || coalesce(' ' || c2.cat_name, '')
  from categories c
  left join categories c1 on c1.cat_id = c.cat_parent_id
  left join categories c2 on c2.cat_id = c1.cat_parent_id
  where c.cat_id = ${catId})`;
const BRAND_TEXT = (bId: string) => `coalesce((select b.b_name from brands b where b.b_id = ${bId}), '')`;

const NOW_SQLITE = `strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`;
const NOW_PG = `to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPg(db);
  const id = generatedId(db);
  const run = (text: string) => sql.raw(text).execute(db);

  await db.schema.alterTable('products').addColumn('p_price', 'integer').execute();
  await db.schema.alterTable('products').addColumn('p_sale_price', 'integer').execute();

  await db.schema
    .createTable('price_history')
    .addColumn('ph_id', 'integer', id)
    .addColumn('v_id', 'integer', (c) => c.notNull().references('variants.v_id').onDelete('cascade'))
    .addColumn('ph_price', 'integer', (c) => c.notNull())
    .addColumn('ph_from', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('price_history_variant_idx').on('price_history').columns(['v_id', 'ph_from']).execute();

  await db.schema
    .createTable('product_accessories')
    .addColumn('pa_id', 'integer', id)
    .addColumn('p_id', 'integer', (c) => c.notNull().references('products.p_id').onDelete('cascade'))
    .addColumn('v_id', 'integer', (c) => c.notNull().references('variants.v_id').onDelete('cascade'))
    .addColumn('pa_kind', 'text', (c) => c.notNull().check(sql`pa_kind in ('required', 'component')`))
    .addColumn('pa_amount', 'integer', (c) => c.notNull().defaultTo(1).check(sql`pa_amount >= 1`))
    .addColumn('pa_position', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('product_accessories_product_idx').on('product_accessories').column('p_id').execute();

  // Listings: a category's or brand's page in each sort order, covering (p_price is the "listed"
  // condition), so a page of a big category sorts index entries and never reads the table.
  await db.schema.createIndex('products_cat_popularity_idx').on('products').columns(['cat_id', 'p_popularity', 'p_price']).execute();
  await db.schema.createIndex('products_cat_price_idx').on('products').columns(['cat_id', 'p_price']).execute();
  await db.schema.createIndex('products_cat_name_idx').on('products').columns(['cat_id', 'p_name_sort', 'p_price']).execute();
  await db.schema.createIndex('products_cat_created_idx').on('products').columns(['cat_id', 'p_created_at', 'p_price']).execute();
  await db.schema.createIndex('products_brand_popularity_idx').on('products').columns(['b_id', 'p_popularity', 'p_price']).execute();
  await db.schema.createIndex('products_brand_cat_idx').on('products').columns(['b_id', 'cat_id', 'p_price']).execute();
  await db.schema.createIndex('products_price_idx').on('products').column('p_price').execute();
  await db.schema.createIndex('products_sale_price_idx').on('products').column('p_sale_price').execute();
  await db.schema.createIndex('products_name_sort_idx').on('products').column('p_name_sort').execute();
  await db.schema.createIndex('variants_product_availability_idx').on('variants').columns(['p_id', 'v_availability']).execute();
  await db.schema
    .createIndex('attribute_values_facet_idx')
    .on('attribute_values')
    .columns(['p_id', 'attr_id', 'av_string', 'av_integer'])
    .execute();
  await db.schema.createIndex('categories_name_idx').on('categories').column('cat_name').execute();

  if (pg) {
    await run(`create function shop_refresh_product_prices(pid integer) returns void language sql as $$
      ${refreshPrices('p_id = pid')} $$`);
    await run(`create function shop_variants_changed() returns trigger language plpgsql as $$
      begin
        if tg_op in ('UPDATE', 'DELETE') then perform shop_refresh_product_prices(old.p_id); end if;
        if tg_op in ('INSERT', 'UPDATE') and (tg_op = 'INSERT' or new.p_id is distinct from old.p_id) then
          perform shop_refresh_product_prices(new.p_id);
        end if;
        return null;
      end $$`);
    await run(`create trigger variants_refresh_product after insert or delete or update of v_sell_price, v_vat, v_sale, v_availability, p_id
      on variants for each row execute function shop_variants_changed()`);
    await run(`create function shop_variant_price_history() returns trigger language plpgsql as $$
      begin
        if ${GROSS('new')} is distinct from ${GROSS('old')} then
          insert into price_history (v_id, ph_price, ph_from) values (new.v_id, ${GROSS('new')}, ${NOW_PG});
        end if;
        return null;
      end $$`);
    await run(`create trigger variants_price_history after update of v_sell_price, v_vat, v_sale
      on variants for each row execute function shop_variant_price_history()`);

    await run('create extension if not exists unaccent');
    await run(`create function shop_fold(text) returns text language sql immutable parallel safe strict as $$
      select lower(public.unaccent('public.unaccent'::regdictionary, $1)) $$`);
    await run(`create table product_search (
      p_id integer primary key references products (p_id) on delete cascade,
      document tsvector not null)`);
    await run('create index product_search_document_idx on product_search using gin (document)');
    await run(`create function shop_product_document(pid integer) returns tsvector language sql stable as $$
      select setweight(to_tsvector('simple', shop_fold(p.p_name)), 'A')
          || setweight(to_tsvector('simple', shop_fold(${BRAND_TEXT('p.b_id')})), 'B')
          || setweight(to_tsvector('simple', shop_fold(coalesce(${CATEGORY_TEXT('p.cat_id')}, ''))), 'C')
          || setweight(to_tsvector('simple', shop_fold(p.p_description)), 'D')
      from products p where p.p_id = pid $$`);
    await run(`create function shop_products_search_changed() returns trigger language plpgsql as $$
      begin
        insert into product_search (p_id, document) values (new.p_id, shop_product_document(new.p_id))
        on conflict (p_id) do update set document = excluded.document;
        return null;
      end $$`);
    await run(`create trigger products_search_changed after insert or update of p_name, p_description, b_id, cat_id
      on products for each row execute function shop_products_search_changed()`);
    await run('insert into product_search (p_id, document) select p_id, shop_product_document(p_id) from products');
  } else {
    await run(`create trigger variants_refresh_product_insert after insert on variants begin
      ${refreshPrices('p_id = new.p_id')}; end`);
    await run(`create trigger variants_refresh_product_delete after delete on variants begin
      ${refreshPrices('p_id = old.p_id')}; end`);
    await run(`create trigger variants_refresh_product_update after update of v_sell_price, v_vat, v_sale, v_availability, p_id
      on variants begin ${refreshPrices('p_id in (old.p_id, new.p_id)')}; end`);
    await run(`create trigger variants_price_history after update of v_sell_price, v_vat, v_sale on variants
      when ${GROSS('new')} is not ${GROSS('old')} begin
      insert into price_history (v_id, ph_price, ph_from) values (new.v_id, ${GROSS('new')}, ${NOW_SQLITE}); end`);

    await run(`create virtual table product_search using fts5(
      name, brand, category, description,
      tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3')`);
    const values = (p: string) =>
      `${p}.p_id, ${p}.p_name, ${BRAND_TEXT(`${p}.b_id`)}, coalesce(${CATEGORY_TEXT(`${p}.cat_id`)}, ''), ${p}.p_description`;
    await run(`create trigger products_search_insert after insert on products begin
      insert into product_search (rowid, name, brand, category, description) select ${values('new')}; end`);
    await run(`create trigger products_search_update after update of p_name, p_description, b_id, cat_id on products begin
      delete from product_search where rowid = old.p_id;
      insert into product_search (rowid, name, brand, category, description) select ${values('new')}; end`);
    await run(`create trigger products_search_delete after delete on products begin
      delete from product_search where rowid = old.p_id; end`);
    await run(`insert into product_search (rowid, name, brand, category, description) select ${values('p')} from products p`);
  }

  await run(refreshPrices('1 = 1'));
}

export async function down(db: Kysely<any>): Promise<void> {
  const run = (text: string) => sql.raw(text).execute(db);
  if (isPg(db)) {
    await run('drop trigger if exists products_search_changed on products');
    await run('drop trigger if exists variants_price_history on variants');
    await run('drop trigger if exists variants_refresh_product on variants');
    await run('drop table if exists product_search');
    for (const fn of [
      'shop_products_search_changed()', 'shop_product_document(integer)', 'shop_fold(text)',
      'shop_variant_price_history()', 'shop_variants_changed()', 'shop_refresh_product_prices(integer)',
    ]) {
      await run(`drop function if exists ${fn}`);
    }
  } else {
    for (const trigger of [
      'products_search_insert', 'products_search_update', 'products_search_delete', 'variants_price_history',
      'variants_refresh_product_insert', 'variants_refresh_product_delete', 'variants_refresh_product_update',
    ]) {
      await run(`drop trigger if exists ${trigger}`);
    }
    await run('drop table if exists product_search');
  }
  for (const index of [
    'products_cat_popularity_idx', 'products_cat_price_idx', 'products_cat_name_idx', 'products_cat_created_idx',
    'products_brand_popularity_idx', 'products_brand_cat_idx',
    'products_price_idx', 'products_sale_price_idx', 'products_name_sort_idx', 'variants_product_availability_idx',
    'attribute_values_facet_idx', 'categories_name_idx',
  ]) {
    await db.schema.dropIndex(index).ifExists().execute();
  }
  await db.schema.dropTable('product_accessories').execute();
  await db.schema.dropTable('price_history').execute();
  await db.schema.alterTable('products').dropColumn('p_sale_price').execute();
  await db.schema.alterTable('products').dropColumn('p_price').execute();
}
