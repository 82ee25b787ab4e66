import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/connect.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { seedIfEmpty } from '../../src/db/seed/index.ts';
import { startTestApi } from '../helpers/test-api.ts';
import type { TestApi } from '../helpers/test-api.ts';

let api: TestApi;
beforeAll(async () => {
  // Seeded here, as a new shop is: not a copy of the run's template.
  api = await startTestApi({ newDatabase: true });
});
afterAll(async () => {
  await api?.close();
});

const count = async (table: 'categories' | 'brands' | 'products' | 'variants' | 'blog_posts' | 'blog_post_tags' | 'users') => {
  const row = await api.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
};

describe(`seed (${process.env.DATABASE_URL ? 'postgres' : 'sqlite'})`, () => {
  it('seeds a fresh database once, quickly', async () => {
    expect(api.seeded).toBe(true);
    expect(api.dialect).toBe(process.env.DATABASE_URL ? 'postgres' : 'sqlite');
    if (api.dialect === 'sqlite') expect(api.seedMs).toBeLessThan(5000);
    const before = await count('products');
    const again = await seedIfEmpty(api.db);
    expect(again.seeded).toBe(false);
    expect(await count('products')).toBe(before);
  });

  it('has the catalog size the shop needs', async () => {
    expect(await count('categories')).toBeGreaterThanOrEqual(25);
    expect(await count('brands')).toBeGreaterThanOrEqual(12);
    expect(await count('products')).toBeGreaterThanOrEqual(300);
    expect(await count('variants')).toBeGreaterThanOrEqual(800);
    expect(await count('blog_posts')).toBeGreaterThanOrEqual(10);
    expect(await count('blog_post_tags')).toBeGreaterThanOrEqual(10);
    expect(await count('users')).toBe(2);
  });

  it('builds a category tree three levels deep, products in leaves', async () => {
    const cats = await api.db.selectFrom('categories').select(['cat_id', 'cat_parent_id']).execute();
    const parent = new Map(cats.map((c) => [c.cat_id, c.cat_parent_id]));
    const depth = (id: number): number => {
      const p = parent.get(id);
      return p === null || p === undefined ? 1 : 1 + depth(p);
    };
    const depths = cats.map((c) => depth(c.cat_id));
    expect(Math.max(...depths)).toBe(3);
    expect(depths.filter((d) => d === 1).length).toBeGreaterThanOrEqual(8);
    const withChildren = new Set(cats.map((c) => c.cat_parent_id).filter((p) => p !== null));
    const productCats = await api.db.selectFrom('products').select('cat_id').distinct().execute();
    for (const { cat_id } of productCats) expect(withChildren.has(cat_id)).toBe(false);
  });

  it('prices, sales, stock and units look like a real shop', async () => {
    const variants = await api.db.selectFrom('variants').selectAll().execute();
    const onSale = variants.filter((v) => v.v_sale > 0).length / variants.length;
    expect(onSale).toBeGreaterThan(0.1);
    expect(onSale).toBeLessThan(0.2);
    expect(new Set(variants.map((v) => v.v_availability))).toEqual(new Set(['in_stock', 'to_order', 'unavailable']));
    for (const v of variants) {
      expect(Number.isInteger(v.v_sell_price) && v.v_sell_price > 0).toBe(true);
      expect(v.v_vat).toBe(23);
      expect(v.v_weight).toBeGreaterThan(0);
    }
    const bag = variants.find((v) => v.v_base_unit === 'kg' && v.v_base_amount === 25_000);
    expect(bag).toBeDefined();
    expect(variants.some((v) => v.v_base_unit === 'm²')).toBe(true);
    const names = await api.db.selectFrom('products').select('p_name').execute();
    expect(names.some((n) => n.p_name === 'Tehla Porotherm 30 Profi')).toBe(true);
    expect(names.some((n) => n.p_name === 'Sadrokartónová doska Knauf GKB 12,5 mm')).toBe(true);
    expect(names.some((n) => n.p_name === 'Minerálna vlna Isover Domo 10 cm')).toBe(true);
  });

  it('stores passwords as salted scrypt hashes', async () => {
    const users = await api.db.selectFrom('users').select(['email', 'password_hash']).execute();
    for (const u of users) {
      expect(u.password_hash).toMatch(/^scrypt\$\d+\$\d+\$\d+\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
      expect(u.password_hash).not.toContain('Heslo');
    }
    expect(new Set(users.map((u) => u.password_hash.split('$')[4])).size).toBe(users.length);
  });

  it('is deterministic: the same catalog as a fresh in-memory SQLite seed', async () => {
    const other = await openDatabase({});
    try {
      await migrateToLatest(other.db);
      await seedIfEmpty(other.db);
      const snapshot = (db: typeof api.db) =>
        db
          .selectFrom('variants as v')
          .innerJoin('products as p', 'p.p_id', 'v.p_id')
          .select(['v.v_code', 'v.v_sell_price', 'v.v_sale', 'v.v_availability', 'p.p_url', 'p.p_created_at'])
          .orderBy('v.v_code')
          .execute();
      expect(await snapshot(api.db)).toEqual(await snapshot(other.db));
    } finally {
      await other.close();
    }
  });
});
