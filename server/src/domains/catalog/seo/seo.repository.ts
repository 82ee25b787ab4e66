import type { Db } from '../../../db/database.ts';

/** What search engines and price comparators are given: every public address and every purchasable variant. */
export class SeoRepository {
  constructor(private readonly db: Db) {}

  async productCount(): Promise<number> {
    const row = await this.db
      .selectFrom('products')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** The id before the `index`-th product (0-based, by id): where a sitemap file of products starts. */
  async productIdBefore(index: number): Promise<number | null> {
    if (index === 0) return 0;
    const row = await this.db
      .selectFrom('products')
      .select('p_id')
      .orderBy('p_id')
      .offset(index - 1)
      .limit(1)
      .executeTakeFirst();
    return row?.p_id ?? null;
  }

  /** Products after an id (keyset), in id order. */
  productsAfter(afterId: number, limit: number) {
    return this.db
      .selectFrom('products')
      .select(['p_id', 'p_url', 'p_created_at'])
      .where('p_id', '>', afterId)
      .orderBy('p_id')
      .limit(limit)
      .execute();
  }

  categories() {
    return this.db.selectFrom('categories').select(['cat_id', 'cat_parent_id', 'cat_url', 'cat_name']).orderBy('cat_id').execute();
  }

  brands() {
    return this.db.selectFrom('brands').select(['b_url']).orderBy('b_id').execute();
  }

  pages() {
    return this.db.selectFrom('pages').select(['slug', 'updated_at']).orderBy('page_id').execute();
  }

  blogPosts() {
    return this.db.selectFrom('blog_posts').select(['slug', 'published_at']).orderBy('published_at', 'desc').execute();
  }

  blogTags() {
    return this.db.selectFrom('blog_tags').select(['slug']).orderBy('tag_id').execute();
  }

  /** Purchasable variants after a variant id (keyset) with their product, brand and how many variants the product has. */
  offersAfter(afterId: number, limit: number) {
    return this.db
      .selectFrom('variants as v')
      .innerJoin('products as p', 'p.p_id', 'v.p_id')
      .leftJoin('brands as b', 'b.b_id', 'p.b_id')
      .select([
        'v.v_id',
        'v.v_code',
        'v.v_name',
        'v.v_sell_price',
        'v.v_vat',
        'v.v_sale',
        'v.v_availability',
        'v.v_weight',
        'p.p_id',
        'p.p_url',
        'p.p_name',
        'p.p_description',
        'p.cat_id',
        'b.b_name',
      ])
      .select((eb) =>
        eb
          .selectFrom('variants as sibling')
          .select((inner) => inner.fn.countAll<number>().as('n'))
          .whereRef('sibling.p_id', '=', 'p.p_id')
          .as('variant_count'),
      )
      .where('v.v_id', '>', afterId)
      .where('v.v_availability', '!=', 'unavailable')
      .orderBy('v.v_id')
      .limit(limit)
      .execute();
  }
}
