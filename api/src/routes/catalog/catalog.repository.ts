import { sql } from 'kysely';
import type { ExpressionBuilder, SelectQueryBuilder } from 'kysely';
import type { AttributeEntry, Brand, ProductSort, ProductSummary, VariantData } from '@shop/shared-kernel/contract';
import type { Database, DbOrTrx } from '../../db/database.ts';
import { CategoryTree } from './category-tree.ts';
import { productImageUrl, toBrand, toVariantData } from './mappers.ts';
import type { VariantWithProduct } from './mappers.ts';

export type ProductFilter = {
  /** Category ids to list (a category and its subcategories); undefined: all. */
  categoryIds?: number[];
  brandId?: number;
  /** Only products with a variant on sale; the tile then shows that variant. */
  saleOnly?: boolean;
};

const VARIANT_COLUMNS = [
  'v.v_id', 'v.v_code', 'v.v_name', 'v.v_sell_price', 'v.v_vat', 'v.v_sale', 'v.v_stock', 'v.v_availability',
  'v.v_weight', 'v.v_unit', 'v.v_base_amount', 'v.v_base_unit', 'p.p_id', 'p.p_name', 'p.p_url',
] as const;

type VP = Database & { v: Database['variants']; p: Database['products'] };

/** Orders like the unit price with VAT after sale (spec section 9), without rounding; bigint avoids int4 overflow. */
const priceKey = (eb: ExpressionBuilder<VP, 'v'>) =>
  sql<number>`cast(${eb.ref('v.v_sell_price')} as bigint) * (100 + ${eb.ref('v.v_vat')}) * (100000 - ${eb.ref('v.v_sale')})`;

/** Available variants first, then the cheapest, then the oldest. */
const representativeRank = (eb: ExpressionBuilder<VP, 'v'>) =>
  sql<number>`row_number() over (partition by ${eb.ref('v.p_id')} order by case when ${eb.ref('v.v_availability')} = 'unavailable' then 1 else 0 end, ${priceKey(eb)}, ${eb.ref('v.v_id')})`;

export class CatalogRepository {
  constructor(private readonly db: DbOrTrx) {}

  async categoryTree(): Promise<CategoryTree> {
    const rows = await this.db
      .selectFrom('categories')
      .select(['cat_id', 'cat_parent_id', 'cat_url', 'cat_name', 'cat_description'])
      .orderBy('cat_position')
      .orderBy('cat_id')
      .execute();
    return new CategoryTree(rows);
  }

  async brands(): Promise<Brand[]> {
    return this.db.selectFrom('brands').select(['b_id', 'b_url', 'b_name']).orderBy('b_name').orderBy('b_id').execute();
  }

  async brandByUrl(url: string): Promise<Brand | undefined> {
    return this.db.selectFrom('brands').select(['b_id', 'b_url', 'b_name']).where('b_url', '=', url).executeTakeFirst();
  }

  async variant(vId: number): Promise<VariantData | undefined> {
    const row = await this.db
      .selectFrom('variants as v')
      .innerJoin('products as p', 'p.p_id', 'v.p_id')
      .select(VARIANT_COLUMNS)
      .where('v.v_id', '=', vId)
      .executeTakeFirst();
    return row ? toVariantData(row as VariantWithProduct) : undefined;
  }

  /** One page of product tiles plus the number of matching products. */
  async listProducts(
    filter: ProductFilter,
    sort: ProductSort,
    page: { limit: number; offset: number },
  ): Promise<{ items: ProductSummary[]; total: number }> {
    if (filter.categoryIds?.length === 0) return { items: [], total: 0 };
    const total = await this.countProducts(filter);
    if (total === 0 || page.offset >= total) return { items: [], total };
    const ids =
      sort === 'price-asc' || sort === 'price-desc'
        ? await this.pageByPrice(filter, sort, page)
        : await this.pageByProductColumn(filter, sort, page);
    return { items: await this.summaries(ids, Boolean(filter.saleOnly)), total };
  }

  /** Category and brand conditions on `p`; the builder may also join `v` (its type is narrowed to `p`). */
  private applyProductFilter<O>(
    qb: SelectQueryBuilder<VP, 'p' | 'v', O> | SelectQueryBuilder<VP, 'p', O>,
    filter: ProductFilter,
  ) {
    let q = qb as SelectQueryBuilder<VP, 'p', O>;
    if (filter.categoryIds) q = q.where('p.cat_id', 'in', filter.categoryIds);
    if (filter.brandId !== undefined) q = q.where('p.b_id', '=', filter.brandId);
    return q;
  }

  private hasListedVariant(filter: ProductFilter) {
    return (eb: ExpressionBuilder<VP, 'p'>) =>
      eb.exists(
        eb
          .selectFrom('variants as v')
          .select(sql`1`.as('one'))
          .whereRef('v.p_id', '=', 'p.p_id')
          .$if(Boolean(filter.saleOnly), (q) => q.where('v.v_sale', '>', 0)),
      );
  }

  private async countProducts(filter: ProductFilter): Promise<number> {
    const row = await this.applyProductFilter(this.db.selectFrom('products as p'), filter)
      .where(this.hasListedVariant(filter))
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  private async pageByProductColumn(
    filter: ProductFilter,
    sort: Exclude<ProductSort, 'price-asc' | 'price-desc'>,
    page: { limit: number; offset: number },
  ): Promise<number[]> {
    let q = this.applyProductFilter(this.db.selectFrom('products as p'), filter).where(this.hasListedVariant(filter)).select('p.p_id');
    if (sort === 'popular') q = q.orderBy('p.p_popularity', 'desc').orderBy('p.p_id', 'asc');
    else if (sort === 'name') q = q.orderBy('p.p_name_sort', 'asc').orderBy('p.p_id', 'asc');
    else q = q.orderBy('p.p_created_at', 'desc').orderBy('p.p_id', 'desc');
    const rows = await q.limit(page.limit).offset(page.offset).execute();
    return rows.map((r) => r.p_id);
  }

  /** Ranks every matching product's variants to find each tile's price, then sorts by it. */
  private async pageByPrice(
    filter: ProductFilter,
    sort: 'price-asc' | 'price-desc',
    page: { limit: number; offset: number },
  ): Promise<number[]> {
    const ranked = this.applyProductFilter(
      this.db
        .selectFrom('variants as v')
        .innerJoin('products as p', 'p.p_id', 'v.p_id')
        .$if(Boolean(filter.saleOnly), (q) => q.where('v.v_sale', '>', 0))
        .select((eb) => ['v.p_id', priceKey(eb).as('price_key'), representativeRank(eb).as('rn')]),
      filter,
    );
    const direction = sort === 'price-asc' ? 'asc' : 'desc';
    const rows = await this.db
      .selectFrom(ranked.as('r'))
      .select('r.p_id')
      .where('r.rn', '=', 1)
      .orderBy('r.price_key', direction)
      .orderBy('r.p_id', 'asc')
      .limit(page.limit)
      .offset(page.offset)
      .execute();
    return rows.map((r) => r.p_id);
  }

  /** Product tiles for the given ids, in that order. */
  async summaries(ids: number[], saleOnly: boolean): Promise<ProductSummary[]> {
    if (ids.length === 0) return [];
    const ranked = this.db
      .selectFrom('variants as v')
      .innerJoin('products as p', 'p.p_id', 'v.p_id')
      .where('v.p_id', 'in', ids)
      .$if(saleOnly, (q) => q.where('v.v_sale', '>', 0))
      .select((eb) => [...VARIANT_COLUMNS, representativeRank(eb).as('rn')]);
    const [variants, products, counts] = await Promise.all([
      this.db.selectFrom(ranked.as('r')).selectAll('r').where('r.rn', '=', 1).execute(),
      this.db
        .selectFrom('products as p')
        .leftJoin('brands as b', 'b.b_id', 'p.b_id')
        .select(['p.p_id', 'p.p_url', 'p.p_name', 'b.b_id', 'b.b_url', 'b.b_name'])
        .where('p.p_id', 'in', ids)
        .execute(),
      this.db
        .selectFrom('variants')
        .select((eb) => ['p_id', eb.fn.countAll<number>().as('n')])
        .where('p_id', 'in', ids)
        .groupBy('p_id')
        .execute(),
    ]);
    const variantByProduct = new Map(variants.map((v) => [v.p_id, toVariantData(v as VariantWithProduct)]));
    const productById = new Map(products.map((p) => [p.p_id, p]));
    const countByProduct = new Map(counts.map((c) => [c.p_id, Number(c.n)]));
    return ids.flatMap((id) => {
      const p = productById.get(id);
      const variant = variantByProduct.get(id);
      if (!p || !variant) return [];
      return [{
        p_id: p.p_id,
        p_url: p.p_url,
        p_name: p.p_name,
        p_image: productImageUrl(p.p_id),
        brand: toBrand(p),
        variantCount: countByProduct.get(id) ?? 0,
        variant,
      }];
    });
  }

  async productByUrl(url: string) {
    return this.db
      .selectFrom('products as p')
      .leftJoin('brands as b', 'b.b_id', 'p.b_id')
      .select(['p.p_id', 'p.p_url', 'p.p_name', 'p.p_description', 'p.cat_id', 'b.b_id', 'b.b_url', 'b.b_name'])
      .where('p.p_url', '=', url)
      .executeTakeFirst();
  }

  async productVariants(pId: number): Promise<VariantData[]> {
    const rows = await this.db
      .selectFrom('variants as v')
      .innerJoin('products as p', 'p.p_id', 'v.p_id')
      .select(VARIANT_COLUMNS)
      .where('v.p_id', '=', pId)
      .orderBy('v.v_id')
      .execute();
    return rows.map((r) => toVariantData(r as VariantWithProduct));
  }

  async productAttributes(pId: number): Promise<AttributeEntry[]> {
    const rows = await this.db
      .selectFrom('attribute_values as av')
      .innerJoin('attributes as a', 'a.attr_id', 'av.attr_id')
      .select(['a.attr_id', 'a.attr_name', 'a.unit_name', 'a.use_attr', 'av.av_string', 'av.av_integer'])
      .where('av.p_id', '=', pId)
      .orderBy('a.attr_id')
      .orderBy('av.av_id')
      .execute();
    const entries = new Map<number, AttributeEntry>();
    for (const r of rows) {
      let entry = entries.get(r.attr_id);
      if (!entry) {
        entry = {
          attr_id: r.attr_id,
          attr_name: r.attr_name,
          use_attr: r.use_attr === 1 ? 1 : 0,
          attributeValues: [],
          units: r.unit_name === null ? null : { unit_name: r.unit_name },
        };
        entries.set(r.attr_id, entry);
      }
      entry.attributeValues.push({ av_string: r.av_string, av_integer: r.av_integer });
    }
    return [...entries.values()];
  }

  /** Root category url of a product, for its picture. */
  async productForImage(pId: number) {
    return this.db.selectFrom('products').select(['p_id', 'p_name', 'cat_id']).where('p_id', '=', pId).executeTakeFirst();
  }
}
