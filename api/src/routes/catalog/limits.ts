/**
 * How much one listing or facets request may ask for. Each bounds the queries it costs: an
 * attribute filter adds one condition to the listing and one count query to the facets. Set so
 * that whatever the shop's filter panel offers fits (16 filterable attributes, at most 30 values
 * shown per attribute, every brand of a listing).
 */
export const LISTING_LIMITS = {
  /** Attribute filters (f… and r… together) in one request. */
  attributeFilters: 20,
  /** Values ticked in one attribute filter (the panel shows at most 30). */
  valuesPerFilter: 30,
  /** Brands ticked at once. */
  brands: 50,
  /** Length of one filter value. */
  valueLength: 100,
  /** Query parameters in all: the fixed ones, page and sort, and the attribute filters. */
  parameters: 30,
} as const;

export const LIMIT_MESSAGES = {
  attributeFilters: `Príliš veľa filtrov naraz (najviac ${LISTING_LIMITS.attributeFilters}). Zrušte niektoré filtre.`,
  valuesPerFilter: `Príliš veľa hodnôt jedného filtra (najviac ${LISTING_LIMITS.valuesPerFilter}).`,
  brands: `Príliš veľa značiek naraz (najviac ${LISTING_LIMITS.brands}).`,
  valueLength: `Hodnota filtra je príliš dlhá (najviac ${LISTING_LIMITS.valueLength} znakov).`,
} as const;
