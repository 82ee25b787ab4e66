import { PostgresAdapter, sql } from 'kysely';
import type { Kysely } from 'kysely';

// Frozen: never edit a migration that has run; add a new one.
//
// A category page lists its own products and its subcategories' products in one order. Over
// `products` that is `cat_id in (…)` and a sort of every matching product (a temporary B-tree of
// every row of a large category), whatever the page. Kept here:
// - category_ancestors: each category with itself and every category above it (a closure of the
//   tree), kept by triggers on `categories`;
// - category_listing: each listed product (with a price) once per category it is listed under
//   (its own and every one above), with the columns the listing sorts by, kept by triggers on
//   `products` and on `categories`. One index per sort reads a page in order, and the count is
//   one index range.

const isPg = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;

/** The columns a listing sorts by; a change to one of them (or to cat_id) rewrites the product's rows. */
const SORTED = ['p_popularity', 'p_price', 'p_name_sort', 'p_created_at'] as const;

export async function up(db: Kysely<any>): Promise<void> {
  const run = (text: string) => sql.raw(text).execute(db);
  const pg = isPg(db);
  await db.schema
    .createTable('category_ancestors')
    .addColumn('cat_id', 'integer', (c) => c.notNull())
    .addColumn('anc_cat_id', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('category_ancestors_pk', ['cat_id', 'anc_cat_id'])
    .execute();
  await db.schema.createIndex('category_ancestors_anc_idx').on('category_ancestors').columns(['anc_cat_id', 'cat_id']).execute();
  await db.schema
    .createTable('category_listing')
    .addColumn('anc_cat_id', 'integer', (c) => c.notNull())
    .addColumn('p_id', 'integer', (c) => c.notNull())
    .addColumn('p_popularity', 'integer', (c) => c.notNull())
    .addColumn('p_price', 'integer', (c) => c.notNull())
    .addColumn('p_name_sort', 'text', (c) => c.notNull())
    .addColumn('p_created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('category_listing_pk', ['anc_cat_id', 'p_id'])
    .execute();
  // One index per sort, in the listing's exact order (ties by id), so a page is an index range.
  await run('create index category_listing_popular_idx on category_listing (anc_cat_id, p_popularity desc, p_id)');
  await run('create index category_listing_price_idx on category_listing (anc_cat_id, p_price, p_id)');
  await run('create index category_listing_price_desc_idx on category_listing (anc_cat_id, p_price desc, p_id)');
  await run('create index category_listing_name_idx on category_listing (anc_cat_id, p_name_sort, p_id)');
  await run('create index category_listing_newest_idx on category_listing (anc_cat_id, p_created_at desc, p_id desc)');
  await run('create index category_listing_product_idx on category_listing (p_id)');

  // What is there already.
  await run(`with recursive up (cat_id, anc_cat_id) as (
      select cat_id, cat_id from categories
      union
      select up.cat_id, c.cat_parent_id from up join categories c on c.cat_id = up.anc_cat_id where c.cat_parent_id is not null)
    insert into category_ancestors (cat_id, anc_cat_id) select cat_id, anc_cat_id from up`);
  await run(`insert into category_listing (anc_cat_id, p_id, ${SORTED.join(', ')})
    select a.anc_cat_id, p.p_id, ${SORTED.map((c) => `p.${c}`).join(', ')}
    from products p join category_ancestors a on a.cat_id = p.cat_id where p.p_price is not null`);

  /** The rows of the products `where` selects (a condition on `p`), under every category above theirs. */
  const listProducts = (where: string) => `insert into category_listing (anc_cat_id, p_id, ${SORTED.join(', ')})
    select a.anc_cat_id, p.p_id, ${SORTED.map((c) => `p.${c}`).join(', ')}
    from products p join category_ancestors a on a.cat_id = p.cat_id where p.p_price is not null and ${where};`;
  const listProduct = (row: 'new') => `insert into category_listing (anc_cat_id, p_id, ${SORTED.join(', ')})
    select a.anc_cat_id, ${row}.p_id, ${SORTED.map((c) => `${row}.${c}`).join(', ')}
    from category_ancestors a where a.cat_id = ${row}.cat_id and ${row}.p_price is not null;`;
  const unlistProduct = (row: 'old') => `delete from category_listing where p_id = ${row}.p_id;`;
  // A category moved under another parent (or to the top): its subtree loses the ancestors above it
  // and gains the new parent's; its products are listed again under their new ancestors.
  const subtree = (id: string) => `(select cat_id from category_ancestors where anc_cat_id = ${id})`;
  const moved = (id: string, parent: string) => `
    delete from category_listing where p_id in (select p_id from products where cat_id in ${subtree(id)});
    delete from category_ancestors where cat_id in ${subtree(id)} and anc_cat_id not in ${subtree(id)};
    insert into category_ancestors (cat_id, anc_cat_id)
      select d.cat_id, a.anc_cat_id from category_ancestors d join category_ancestors a on a.cat_id = ${parent} where d.anc_cat_id = ${id};
    ${listProducts(`p.cat_id in ${subtree(id)}`)}`;
  const added = (row: 'new') => `
    insert into category_ancestors (cat_id, anc_cat_id) values (${row}.cat_id, ${row}.cat_id);
    insert into category_ancestors (cat_id, anc_cat_id) select ${row}.cat_id, anc_cat_id from category_ancestors where cat_id = ${row}.cat_parent_id;`;
  // A removed category (it has no products: products.cat_id forbids it): its subtree loses it and
  // every ancestor above it (its children move to the top), and its products' rows under them go.
  const removed = (row: 'old') => `
    delete from category_listing where anc_cat_id in (select anc_cat_id from category_ancestors where cat_id = ${row}.cat_id)
      and p_id in (select p_id from products where cat_id in ${subtree(`${row}.cat_id`)});
    delete from category_ancestors where cat_id in ${subtree(`${row}.cat_id`)}
      and anc_cat_id in (select anc_cat_id from category_ancestors where cat_id = ${row}.cat_id);`;
  const productChanged = (differ: string) => ['cat_id', ...SORTED].map((c) => `old.${c} ${differ} new.${c}`).join(' or ');

  if (pg) {
    const fn = async (name: string, body: string, returns: 'new' | 'old' | 'null') =>
      run(`create function ${name}() returns trigger language plpgsql as $$ begin ${body} return ${returns}; end $$`);
    await fn('shop_listing_product_added', listProduct('new'), 'null');
    await fn('shop_listing_product_changed', `${unlistProduct('old')} ${listProduct('new')}`, 'null');
    await fn('shop_listing_product_removed', unlistProduct('old'), 'null');
    await fn('shop_listing_category_added', added('new'), 'null');
    await fn('shop_listing_category_moved', moved('new.cat_id', 'new.cat_parent_id'), 'null');
    await fn('shop_listing_category_removed', removed('old'), 'old');
    await run('create trigger products_listing_insert after insert on products for each row execute function shop_listing_product_added()');
    await run(`create trigger products_listing_update after update of ${['cat_id', ...SORTED].join(', ')} on products for each row
      when (${productChanged('is distinct from')}) execute function shop_listing_product_changed()`);
    await run('create trigger products_listing_delete after delete on products for each row execute function shop_listing_product_removed()');
    await run('create trigger categories_listing_insert after insert on categories for each row execute function shop_listing_category_added()');
    await run(`create trigger categories_listing_update after update of cat_parent_id on categories for each row
      when (old.cat_parent_id is distinct from new.cat_parent_id) execute function shop_listing_category_moved()`);
    // Before the row goes, while the closure still names its subtree.
    await run('create trigger categories_listing_delete before delete on categories for each row execute function shop_listing_category_removed()');
  } else {
    await run(`create trigger products_listing_insert after insert on products begin ${listProduct('new')} end`);
    await run(`create trigger products_listing_update after update of ${['cat_id', ...SORTED].join(', ')} on products when ${productChanged('is not')}
      begin ${unlistProduct('old')} ${listProduct('new')} end`);
    await run(`create trigger products_listing_delete after delete on products begin ${unlistProduct('old')} end`);
    await run(`create trigger categories_listing_insert after insert on categories begin ${added('new')} end`);
    await run(`create trigger categories_listing_update after update of cat_parent_id on categories when old.cat_parent_id is not new.cat_parent_id
      begin ${moved('new.cat_id', 'new.cat_parent_id')} end`);
    await run(`create trigger categories_listing_delete before delete on categories begin ${removed('old')} end`);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  const run = (text: string) => sql.raw(text).execute(db);
  const pg = isPg(db);
  for (const [table, suffix] of [['products', 'insert'], ['products', 'update'], ['products', 'delete'], ['categories', 'insert'], ['categories', 'update'], ['categories', 'delete']]) {
    await run(pg ? `drop trigger if exists ${table}_listing_${suffix} on ${table}` : `drop trigger if exists ${table}_listing_${suffix}`);
  }
  if (pg) {
    for (const name of ['product_added', 'product_changed', 'product_removed', 'category_added', 'category_moved', 'category_removed']) {
      await run(`drop function if exists shop_listing_${name}()`);
    }
  }
  await db.schema.dropTable('category_listing').ifExists().execute();
  await db.schema.dropTable('category_ancestors').ifExists().execute();
}
