/** The catalog's tables. Money columns are integers in thousandths of a euro; timestamps are ISO 8601 UTC text. */
import type { Generated, Insertable, Selectable } from 'kysely';

export interface CategoryTable {
  cat_id: Generated<number>;
  cat_parent_id: number | null;
  cat_url: string;
  cat_name: string;
  cat_description: Generated<string>;
  cat_position: Generated<number>;
}

export interface BrandTable {
  b_id: Generated<number>;
  b_url: string;
  b_name: string;
}

export interface ProductTable {
  p_id: Generated<number>;
  p_url: string;
  p_name: string;
  /** p_name folded to lower-case ASCII, so both dialects sort names the same way. */
  p_name_sort: string;
  p_description: Generated<string>;
  b_id: number | null;
  cat_id: number;
  p_created_at: string;
  p_popularity: Generated<number>;
  /** Tile price (with VAT, after sale, whole cents) of the representative variant; set by a trigger on variants. */
  p_price: Generated<number | null>;
  /** The same for the representative sale variant; null without a discounted variant. */
  p_sale_price: Generated<number | null>;
  /** The representative variant (the tile's), its number of variants and their deepest discount; set by a trigger on variants. */
  p_tile_v_id: Generated<number | null>;
  p_variant_count: Generated<number>;
  p_max_sale: Generated<number>;
}

export type AvailabilityColumn = 'in_stock' | 'to_order' | 'unavailable';

export interface VariantTable {
  v_id: Generated<number>;
  p_id: number;
  v_code: string;
  v_name: string;
  /** Sell price without VAT, thousandths of a euro. */
  v_sell_price: number;
  v_vat: Generated<number>;
  /** Discount in thousandths of a percent (10000 = 10 %). */
  v_sale: Generated<number>;
  v_stock: Generated<number>;
  v_availability: Generated<AvailabilityColumn>;
  /** Grams. */
  v_weight: Generated<number>;
  v_unit: string;
  /** Thousandths of the base unit. */
  v_base_amount: number | null;
  v_base_unit: string | null;
}

export interface AttributeTable {
  attr_id: Generated<number>;
  attr_name: string;
  unit_name: string | null;
  use_attr: Generated<number>;
}

export interface AttributeValueTable {
  av_id: Generated<number>;
  p_id: number;
  attr_id: number;
  av_string: string | null;
  /** Thousandths. */
  av_integer: number | null;
}

/** Every price a variant had, with VAT after sale (thousandths), from ph_from on (ISO 8601 UTC). */
export interface PriceHistoryTable {
  ph_id: Generated<number>;
  v_id: number;
  ph_price: number;
  ph_from: string;
}

export type AccessoryKind = 'required' | 'component';

/** A variant the basket gets with a product: a required accessory or a component of a set. */
export interface ProductAccessoryTable {
  pa_id: Generated<number>;
  p_id: number;
  v_id: number;
  pa_kind: AccessoryKind;
  /** Pieces per piece of the product. */
  pa_amount: Generated<number>;
  pa_position: Generated<number>;
}

export type CategoryRow = Selectable<CategoryTable>;
export type NewCategory = Insertable<CategoryTable>;
export type BrandRow = Selectable<BrandTable>;
export type NewBrand = Insertable<BrandTable>;
export type ProductRow = Selectable<ProductTable>;
export type NewProduct = Insertable<ProductTable>;
export type VariantRow = Selectable<VariantTable>;
export type NewVariant = Insertable<VariantTable>;
export type AttributeRow = Selectable<AttributeTable>;
export type NewAttribute = Insertable<AttributeTable>;
export type NewAttributeValue = Insertable<AttributeValueTable>;

/**
 * Facet counts of one category's own products of one brand (migrations category-facet-counts,
 * facet-counts-per-brand): `kind` brand
 * (ref_id b_id), availability (value), attr (ref_id attr_id, value av_string), attr_range
 * (ref_id attr_id, lo/hi), price (lo/hi); each again with the prefix sale_ for the products on sale
 * (migrations sale-counts, sale-facet-counts); unused parts are 0 or ''.
 */
export interface CategoryFacetCountTable {
  cat_id: number;
  /** The products' brand (0: none); the brand rows are keyed by their own brand (ref_id). */
  b_id: number;
  kind: 'brand' | 'availability' | 'attr' | 'attr_range' | 'price' | `sale_${'brand' | 'availability' | 'attr' | 'attr_range' | 'price'}`;
  ref_id: number;
  value: string;
  n: number;
  lo: number | string | null;
  hi: number | string | null;
}

/** A category's revision, moved by triggers when a row its facet counts depend on changes. */
export interface CategoryFacetRevTable {
  cat_id: number;
  rev: number;
}

/** A category with itself and every category above it (migration category-listing). */
export interface CategoryAncestorTable {
  cat_id: number;
  anc_cat_id: number;
}

/** A listed product under one of the categories it is listed in, with the columns listings sort by. */
export interface CategoryListingTable {
  anc_cat_id: number;
  p_id: number;
  p_popularity: number;
  p_price: number;
  p_name_sort: string;
  p_created_at: string;
}
