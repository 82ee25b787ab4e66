import { PostgresAdapter, sql } from 'kysely';
import type { Kysely } from 'kysely';

// Frozen: never edit a migration that has run; add a new one.
//
// Facet counts kept per category, so a category page's filters are a sum over its subtree's few
// rows instead of a count over its products (routes/catalog/repository/facet-counts.ts):
// - category_facet_counts: per category (its own products, not its subcategories'), the products
//   per brand, per availability, per string attribute value, per numeric attribute (with its
//   range) and the price range; a product sits in one category, so the counts of a subtree add up;
// - category_facet_revs: a revision per category, moved by triggers whenever a row that the counts
//   depend on changes (a product's category, brand or price; a variant's availability; an
//   attribute value); a stock change (an order) moves nothing;
// - category_facet_computed: the revision the counts were computed at; counts of a category
//   whose revision has moved on are computed again when next asked for.

const isPg = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;

export async function up(db: Kysely<any>): Promise<void> {
  const run = (text: string) => sql.raw(text).execute(db);
  const pg = isPg(db);
  await db.schema
    .createTable('category_facet_counts')
    .addColumn('cat_id', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('ref_id', 'integer', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addColumn('lo', 'bigint')
    .addColumn('hi', 'bigint')
    .addPrimaryKeyConstraint('category_facet_counts_pk', ['cat_id', 'kind', 'ref_id', 'value'])
    .execute();
  await db.schema.createTable('category_facet_revs').addColumn('cat_id', 'integer', (c) => c.primaryKey()).addColumn('rev', 'integer', (c) => c.notNull()).execute();
  await db.schema.createTable('category_facet_computed').addColumn('cat_id', 'integer', (c) => c.primaryKey()).addColumn('rev', 'integer', (c) => c.notNull()).execute();

  // The columns whose change moves a category's revision, per table (an update that changes none moves nothing).
  const watched = [
    { table: 'products', columns: ['cat_id', 'b_id', 'p_price'], product: null },
    { table: 'variants', columns: ['v_availability', 'p_id'], product: 'p_id' },
    { table: 'attribute_values', columns: ['p_id', 'attr_id', 'av_string', 'av_integer'], product: 'p_id' },
  ] as const;
  const changed = (columns: readonly string[], differ: string) => columns.map((c) => `old.${c} ${differ} new.${c}`).join(' or ');
  if (pg) {
    await run(`create function shop_facets_touch(cid integer) returns void language sql as $$
      insert into category_facet_revs (cat_id, rev) select cid, 1 where cid is not null
      on conflict (cat_id) do update set rev = category_facet_revs.rev + 1 $$`);
    // Inserts and deletes: one statement trigger over the changed rows, so a bulk import moves each category once per statement.
    await run(`create function shop_facets_rows_products() returns trigger language plpgsql as $$
      begin
        insert into category_facet_revs (cat_id, rev) select distinct cat_id, 1 from changed_rows
        on conflict (cat_id) do update set rev = category_facet_revs.rev + 1;
        return null;
      end $$`);
    await run(`create function shop_facets_rows_of_products() returns trigger language plpgsql as $$
      begin
        insert into category_facet_revs (cat_id, rev) select distinct p.cat_id, 1 from changed_rows r join products p on p.p_id = r.p_id
        on conflict (cat_id) do update set rev = category_facet_revs.rev + 1;
        return null;
      end $$`);
    // Updates: a row trigger on the watched columns (transition tables allow no column list).
    await run(`create function shop_facets_updated_products() returns trigger language plpgsql as $$
      begin
        perform shop_facets_touch(old.cat_id);
        if new.cat_id is distinct from old.cat_id then perform shop_facets_touch(new.cat_id); end if;
        return null;
      end $$`);
    await run(`create function shop_facets_updated_of_products() returns trigger language plpgsql as $$
      begin
        perform shop_facets_touch((select cat_id from products where p_id = old.p_id));
        if new.p_id is distinct from old.p_id then perform shop_facets_touch((select cat_id from products where p_id = new.p_id)); end if;
        return null;
      end $$`);
    for (const { table, columns, product } of watched) {
      const suffix = product ? 'of_products' : 'products';
      await run(`create trigger ${table}_facets_insert after insert on ${table} referencing new table as changed_rows
        for each statement execute function shop_facets_rows_${suffix}()`);
      await run(`create trigger ${table}_facets_delete after delete on ${table} referencing old table as changed_rows
        for each statement execute function shop_facets_rows_${suffix}()`);
      await run(`create trigger ${table}_facets_update after update of ${columns.join(', ')} on ${table} for each row
        when (${changed(columns, 'is distinct from')}) execute function shop_facets_updated_${suffix}()`);
    }
  } else {
    const touch = (catId: string) =>
      `insert into category_facet_revs (cat_id, rev) select ${catId}, 1 where ${catId} is not null on conflict (cat_id) do update set rev = rev + 1;`;
    const categoryOf = (row: 'old' | 'new', product: string | null) => (product ? `(select cat_id from products where p_id = ${row}.${product})` : `${row}.cat_id`);
    for (const { table, columns, product } of watched) {
      await run(`create trigger ${table}_facets_insert after insert on ${table} begin ${touch(categoryOf('new', product))} end`);
      await run(`create trigger ${table}_facets_delete after delete on ${table} begin ${touch(categoryOf('old', product))} end`);
      await run(`create trigger ${table}_facets_update after update of ${columns.join(', ')} on ${table} when ${changed(columns, 'is not')}
        begin ${touch(categoryOf('old', product))} ${touch(categoryOf('new', product))} end`);
    }
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  const run = (text: string) => sql.raw(text).execute(db);
  for (const table of ['products', 'variants', 'attribute_values']) {
    for (const suffix of ['insert', 'delete', 'update']) {
      await run(isPg(db) ? `drop trigger if exists ${table}_facets_${suffix} on ${table}` : `drop trigger if exists ${table}_facets_${suffix}`);
    }
  }
  if (isPg(db)) {
    for (const fn of ['rows_products', 'rows_of_products', 'updated_products', 'updated_of_products']) await run(`drop function if exists shop_facets_${fn}()`);
    await run('drop function if exists shop_facets_touch(integer)');
  }
  for (const table of ['category_facet_computed', 'category_facet_revs', 'category_facet_counts']) await db.schema.dropTable(table).ifExists().execute();
}
