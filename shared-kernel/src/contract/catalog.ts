/**
 * Catalogue contract (issue 4): listing filters and facets, search, suggestions,
 * the 30-day lowest price, accessories. Money is in thousandths of a euro.
 *
 * A listing's filter query is the same in the page URL and in the API call, so a
 * filtered page can be shared: several values of one filter are joined with '|'.
 */
import type { Availability, ProductSummary, VariantData } from './domain.ts';
import type { Paged, ProductSort } from './api.ts';

/** Key of a string attribute filter: f{attr_id} = values joined with '|'. */
export type AttributeValuesKey = `f${number}`;
/** Key of a numeric attribute filter: r{attr_id} = "min-max" in the attribute's unit, either side may be empty. */
export type AttributeRangeKey = `r${number}`;

export type ListingFilterQuery = {
  /** Brand urls joined with '|'. */
  brands?: string;
  /** Availabilities joined with '|' (a product matches when one of its variants has one of them). */
  avail?: string;
  /** Price with VAT in euros, "min-max", either side may be empty. */
  price?: string;
} & { [key: AttributeValuesKey | AttributeRangeKey]: string | undefined };

/** Query of GET /api/products: where, which page, which order, which filters. */
export type ListingQuery = {
  category?: string;
  brand?: string;
  sale?: 1;
  page?: number;
  sort?: ProductSort;
} & ListingFilterQuery;

export type FacetValue = { value: string; label: string; count: number };

export type AttributeFacet =
  | {
      kind: 'values';
      attr_id: number;
      attr_name: string;
      unit_name: string | null;
      values: FacetValue[];
    }
  | {
      kind: 'range';
      attr_id: number;
      attr_name: string;
      unit_name: string | null;
      /** Smallest and largest value in thousandths, over the products matching the other filters. */
      min: number;
      max: number;
      /** Products of the listing that have this attribute. */
      count: number;
    };

/**
 * Facets of a listing. Each count is of the products matching every other active filter
 * (a filter's own values do not narrow its own counts, so several can be ticked).
 */
export type ListingFacets = {
  brands: FacetValue[];
  availability: (FacetValue & { value: Availability })[];
  /** Price range with VAT in thousandths; null when nothing matches. */
  price: { min: number; max: number } | null;
  /** Attributes with use_attr = 1: string values as checkboxes, numeric values as ranges. */
  attributes: AttributeFacet[];
};

/** The lowest price (with VAT, after sale) of the 30 days before a variant's current discount. */
export type VariantLowestPrice = { v_id: number; price: number };

/** A line the basket gets together with the product: a required accessory or a component of a set. */
export type ProductAccessory = {
  kind: 'required' | 'component';
  /** Pieces per piece of the product. */
  amount: number;
  variant: VariantData;
};

export type SearchCategory = { cat_id: number; cat_url: string; cat_name: string };

/** Answer of GET /api/search: ranked products, and categories whose names match the query. */
export type SearchResults = Paged<ProductSummary> & { categories: SearchCategory[] };

export type SearchSuggestion = { p_id: number; p_url: string; p_name: string; p_image: string; price: number };

export type SearchSuggestions = { products: SearchSuggestion[]; categories: SearchCategory[] };

export type CatalogCalls = {
  'GET /api/products/facets': { query: Omit<ListingQuery, 'page' | 'sort'>; answer: { data: ListingFacets } };
  'GET /api/search': { query: { q: string; page?: number }; answer: SearchResults };
  'GET /api/search/suggest': { query: { q: string }; answer: { data: SearchSuggestions } };
};
