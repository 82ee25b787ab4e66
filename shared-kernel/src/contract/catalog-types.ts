/**
 * Catalog shapes: products, variants, categories, brands, listings with their filters and
 * facets, the 30-day lowest price, accessories, search. Money is always an integer in thousandths
 * of a euro (requirements R9.1).
 *
 * A listing's filter query is the same in the page URL and in the API call, so a filtered page
 * can be shared: several values of one filter are joined with '|'.
 */
import { Type, type Static, type TObject, type TProperties } from '@sinclair/typebox';
import { Paged, ProductSort } from './common.ts';
import { BRANDS_LENGTH, LISTING_LIMITS, MULTI_VALUE_LENGTH } from './catalog-limits.ts';

/** A database id. */
const Id = Type.Integer();

export type Availability = Static<typeof Availability>;
export const Availability = Type.Union([Type.Literal('in_stock'), Type.Literal('to_order'), Type.Literal('unavailable')]);

/** Variant data as the basket and the price rules need it (requirements R3.3). */
export type VariantData = Static<typeof VariantData>;
export const VariantData = Type.Object({
  v_id: Id,
  v_code: Type.String(),
  /** Variant label shown to the shopper, e.g. "25 kg" or "biela, 10 l". */
  v_name: Type.String({ description: 'Označenie variantu, napr. „25 kg“' }),
  /** Sell price without VAT, thousandths of a euro. */
  v_sellPrice: Type.Number({ description: 'Predajná cena bez DPH v tisícinách eura' }),
  /** VAT in percent (default 23). */
  v_vat: Type.Number({ description: 'DPH v percentách' }),
  /** Discount in thousandths of a percent (10000 = 10 %). */
  v_sale: Type.Number({ description: 'Zľava v tisícinách percenta (10000 = 10 %)' }),
  v_stock: Type.Number(),
  v_availability: Availability,
  /** Weight of one piece in grams. */
  v_weight: Type.Number({ description: 'Hmotnosť kusa v gramoch' }),
  /** Sales unit shown after the amount, e.g. "ks", "vrece", "m²". */
  v_unit: Type.String(),
  /** For a unit price: how many base units one piece holds (thousandths), e.g. 25 kg bag = 25000. */
  v_baseAmount: Type.Union([Type.Number(), Type.Null()]),
  /** Base unit for the unit price, e.g. "kg", "m²", "l"; null when the product has none. */
  v_baseUnit: Type.Union([Type.String(), Type.Null()]),
  p_id: Id,
  p_name: Type.String(),
  p_url: Type.String(),
  p_image: Type.String(),
});

/** One line of the basket (requirements R3.3). */
export type BasketLine = Static<typeof BasketLine>;
export const BasketLine = Type.Object({
  v_id: Id,
  amount: Type.Number(),
  variantData: VariantData,
  isComponent: Type.Boolean(),
  isRequired: Type.Boolean(),
});

/** A category with its subcategories, in display order. */
export type CategoryNode = Static<typeof CategoryNode>;
export const CategoryNode = Type.Recursive(
  (This) =>
    Type.Object({
      cat_id: Id,
      cat_url: Type.String(),
      cat_name: Type.String(),
      children: Type.Array(This),
    }),
  { $id: 'CategoryNode' },
);

export type Breadcrumb = Static<typeof Breadcrumb>;
export const Breadcrumb = Type.Object({ name: Type.String(), url: Type.String() });

export type Brand = Static<typeof Brand>;
export const Brand = Type.Object({ b_id: Id, b_url: Type.String(), b_name: Type.String() });

export type AttributeValue = Static<typeof AttributeValue>;
export const AttributeValue = Type.Object({
  av_string: Type.Union([Type.String(), Type.Null()]),
  /** Numeric value in thousandths. */
  av_integer: Type.Union([Type.Number(), Type.Null()]),
});

export type AttributeEntry = Static<typeof AttributeEntry>;
export const AttributeEntry = Type.Object({
  attr_id: Id,
  attr_name: Type.String(),
  /** 1 means shown. */
  use_attr: Type.Union([Type.Literal(0), Type.Literal(1)]),
  attributeValues: Type.Array(AttributeValue),
  units: Type.Union([Type.Object({ unit_name: Type.String() }), Type.Null()]),
});

/** The lowest price (with VAT, after sale) of the 30 days before a variant's current discount. */
export type VariantLowestPrice = Static<typeof VariantLowestPrice>;
export const VariantLowestPrice = Type.Object({ v_id: Id, price: Type.Number() });

/** A line the basket gets together with the product: a required accessory or a component of a set. */
export type ProductAccessory = Static<typeof ProductAccessory>;
export const ProductAccessory = Type.Object({
  kind: Type.Union([Type.Literal('required'), Type.Literal('component')]),
  /** Pieces per piece of the product. */
  amount: Type.Number(),
  variant: VariantData,
});

/** A product as a listing tile shows it. */
export type ProductSummary = Static<typeof ProductSummary>;
export const ProductSummary = Type.Object({
  p_id: Id,
  p_url: Type.String(),
  p_name: Type.String(),
  p_image: Type.String(),
  brand: Type.Union([Brand, Type.Null()]),
  variantCount: Type.Integer(),
  /** The cheapest purchasable variant (current price, sale included); the tile shows its price ("od"). */
  variant: VariantData,
  /** The deepest discount among the product's variants, percent (0: none); the tile's sale badge. */
  saleUpTo: Type.Number(),
  /** The lowest price of the 30 days before the tile variant's discount; null when not discounted. */
  lowestPrice30: Type.Union([Type.Number(), Type.Null()]),
});

export type ProductDetail = Static<typeof ProductDetail>;
export const ProductDetail = Type.Object({
  p_id: Id,
  p_url: Type.String(),
  p_name: Type.String(),
  p_description: Type.String(),
  p_images: Type.Array(Type.String()),
  brand: Type.Union([Brand, Type.Null()]),
  breadcrumbs: Type.Array(Breadcrumb),
  variants: Type.Array(VariantData),
  attributes: Type.Array(AttributeEntry),
  /** The 30-day lowest price of every discounted variant. */
  lowestPrices: Type.Array(VariantLowestPrice),
  /** Required accessories and components the basket gets with the product. */
  accessories: Type.Array(ProductAccessory),
  related: Type.Array(ProductSummary),
});

export type CategoryDetail = Static<typeof CategoryDetail>;
export const CategoryDetail = Type.Object({
  cat_id: Id,
  cat_url: Type.String(),
  cat_name: Type.String(),
  cat_description: Type.String(),
  breadcrumbs: Type.Array(Breadcrumb),
  children: Type.Array(CategoryNode),
});

export type HomeData = Static<typeof HomeData>;
export const HomeData = Type.Object({
  categories: Type.Array(CategoryNode),
  sale: Type.Array(ProductSummary),
  newest: Type.Array(ProductSummary),
  brands: Type.Array(Brand),
});

// ---- listing query ----

/** A category, brand or product url (a path segment). */
export const UrlSlug = Type.String({ minLength: 1, maxLength: 200 });

/** Key of a string attribute filter: f{attr_id} = values joined with '|'. */
export type AttributeValuesKey = `f${number}`;
/** Key of a numeric attribute filter: r{attr_id} = "min-max" in the attribute's unit, either side may be empty. */
export type AttributeRangeKey = `r${number}`;
/** The attribute filters of a listing, by key. */
export type AttributeFilters = { [key: AttributeValuesKey | AttributeRangeKey]: string | undefined };

const AVAILABILITY = '(in_stock|to_order|unavailable)';
const DECIMAL = '(\\d{1,9}([.,]\\d{1,3})?)';
/** "min-max" (decimal comma or dot) with either side empty. */
const Range = Type.String({ maxLength: 40, pattern: `^${DECIMAL}?-${DECIMAL}?$` });

/**
 * The attribute filters by key pattern (attribute ids of 1 to 9 digits). The lengths are
 * backstops; the counts of filters, values and brands (LISTING_LIMITS) are checked by the API
 * with messages that name the limit.
 */
const ATTRIBUTE_FILTERS = {
  '^f[1-9][0-9]{0,8}$': Type.String({ minLength: 1, maxLength: MULTI_VALUE_LENGTH }),
  '^r[1-9][0-9]{0,8}$': Range,
};

/**
 * A listing query: its named parameters, the f{attr_id} and r{attr_id} filters, nothing else, and
 * at most LISTING_LIMITS.parameters parameters in all.
 */
const LISTING_QUERY = { additionalProperties: false, maxProperties: LISTING_LIMITS.parameters, patternProperties: ATTRIBUTE_FILTERS };

/** TypeBox cannot derive keys from a pattern: the static type of a listing query gets them as AttributeFilters. */
export interface TListingQuery<P extends TProperties> extends TObject<P> {
  static: Static<TObject<P>> & AttributeFilters;
}
const withAttributeFilters = <P extends TProperties>(schema: TObject<P>) => schema as TListingQuery<P>;

/** Where a listing is: a category (and its subcategories), a brand, the sale. */
const listingScope = {
  category: Type.Optional(UrlSlug),
  brand: Type.Optional(UrlSlug),
  sale: Type.Optional(Type.Union([Type.Literal(0), Type.Literal(1)])),
};

/** The facet filters of a listing (besides f{attr_id} and r{attr_id}); several values joined with '|'. */
const listingFilters = {
  /** Brand urls joined with '|'. */
  brands: Type.Optional(Type.String({ maxLength: BRANDS_LENGTH, pattern: '^[a-z0-9-]+(\\|[a-z0-9-]+)*$' })),
  /** Availabilities joined with '|' (a product matches when one of its variants has one of them). */
  avail: Type.Optional(Type.String({ maxLength: 100, pattern: `^${AVAILABILITY}(\\|${AVAILABILITY})*$` })),
  /** Price with VAT in euros, "min-max", either side may be empty. */
  price: Type.Optional(Range),
};

/**
 * Filters of a listing, the same in the page URL and the API call: brands, availabilities, price,
 * and f{attr_id} (values joined with '|') or r{attr_id} ("min-max") per attribute.
 */
export type ListingFilterQuery = Static<typeof ListingFilterQuery>;
export const ListingFilterQuery = withAttributeFilters(Type.Object(listingFilters, LISTING_QUERY));

/** Query of GET /api/products/facets: where, and which filters. */
export type ListingFacetsQuery = Static<typeof ListingFacetsQuery>;
export const ListingFacetsQuery = withAttributeFilters(Type.Object({ ...listingScope, ...listingFilters }, LISTING_QUERY));

/** Query of GET /api/products: where, which page, which order, which filters. */
export type ListingQuery = Static<typeof ListingQuery>;
export const ListingQuery = withAttributeFilters(
  Type.Object(
    {
      ...listingScope,
      ...listingFilters,
      page: Type.Optional(Type.Integer({ minimum: 1, maximum: LISTING_LIMITS.page, default: 1 })),
      sort: Type.Optional(Type.Union(ProductSort.anyOf, { default: 'popular' })),
    },
    LISTING_QUERY,
  ),
);

// ---- facets ----

export type FacetValue = Static<typeof FacetValue>;
export const FacetValue = Type.Object({ value: Type.String(), label: Type.String(), count: Type.Integer() });

export type AttributeFacet = Static<typeof AttributeFacet>;
export const AttributeFacet = Type.Union([
  Type.Object({
    kind: Type.Literal('values'),
    attr_id: Id,
    attr_name: Type.String(),
    unit_name: Type.Union([Type.String(), Type.Null()]),
    values: Type.Array(FacetValue),
  }),
  Type.Object({
    kind: Type.Literal('range'),
    attr_id: Id,
    attr_name: Type.String(),
    unit_name: Type.Union([Type.String(), Type.Null()]),
    /** Smallest and largest value in thousandths, over the products matching the other filters. */
    min: Type.Number(),
    max: Type.Number(),
    /** Products of the listing that have this attribute. */
    count: Type.Integer(),
  }),
]);

/**
 * Facets of a listing. Each count is of the products matching every other active filter
 * (a filter's own values do not narrow its own counts, so several can be ticked).
 */
export type ListingFacets = Static<typeof ListingFacets>;
export const ListingFacets = Type.Object({
  brands: Type.Array(FacetValue),
  availability: Type.Array(Type.Object({ value: Availability, label: Type.String(), count: Type.Integer() })),
  /** Price range with VAT in thousandths; null when nothing matches. */
  price: Type.Union([Type.Object({ min: Type.Number(), max: Type.Number() }), Type.Null()]),
  /** Attributes with use_attr = 1: string values as checkboxes, numeric values as ranges. */
  attributes: Type.Array(AttributeFacet),
});

// ---- search ----

export type SearchCategory = Static<typeof SearchCategory>;
export const SearchCategory = Type.Object({ cat_id: Id, cat_url: Type.String(), cat_name: Type.String() });

/**
 * Answer of GET /api/search: ranked products, and categories whose names match the query. A search
 * counts and pages through a bounded number of hits: `moreThanTotal` says there are more than
 * `meta.total` (the bound), which no page reaches.
 */
export type SearchResults = Static<typeof SearchResults>;
export const SearchResults = Type.Composite([
  Paged(ProductSummary),
  Type.Object({ categories: Type.Array(SearchCategory), moreThanTotal: Type.Optional(Type.Boolean()) }),
]);

export type SearchSuggestion = Static<typeof SearchSuggestion>;
export const SearchSuggestion = Type.Object({
  p_id: Id,
  p_url: Type.String(),
  p_name: Type.String(),
  p_image: Type.String(),
  /** The tile price ("od"), with VAT. */
  price: Type.Number(),
});

export type SearchSuggestions = Static<typeof SearchSuggestions>;
export const SearchSuggestions = Type.Object({ products: Type.Array(SearchSuggestion), categories: Type.Array(SearchCategory) });
