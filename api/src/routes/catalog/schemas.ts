/** JSON schemas of the catalogue calls (validated and coerced by Fastify before the handler runs). */
import { BRANDS_LENGTH, LISTING_LIMITS, MULTI_VALUE_LENGTH } from './limits.ts';

const slug = { type: 'string', minLength: 1, maxLength: 200 } as const;

export const urlParams = {
  type: 'object',
  required: ['url'],
  properties: { url: slug },
} as const;

export { PAGE_SIZE } from '@shop/shared-kernel/rules';

const AVAILABILITY = '(in_stock|to_order|unavailable)';
const NUMBER = '(\\d{1,9}([.,]\\d{1,3})?)';
/** "min-max" with either side empty. */
const range = { type: 'string', maxLength: 40, pattern: `^${NUMBER}?-${NUMBER}?$` } as const;

/**
 * Filters shared by the listing and its facets; several values of one filter joined with '|'.
 * The lengths here are backstops; the counts of filters, values and brands are checked in
 * listing-query.ts against limits.ts, with messages that name the limit.
 */
const filterProperties = {
  category: slug,
  brand: slug,
  sale: { type: 'integer', enum: [0, 1] },
  brands: { type: 'string', maxLength: BRANDS_LENGTH, pattern: '^[a-z0-9-]+(\\|[a-z0-9-]+)*$' },
  avail: { type: 'string', maxLength: 100, pattern: `^${AVAILABILITY}(\\|${AVAILABILITY})*$` },
  price: range,
} as const;

const attributeFilters = {
  '^f[1-9][0-9]{0,8}$': { type: 'string', minLength: 1, maxLength: MULTI_VALUE_LENGTH },
  '^r[1-9][0-9]{0,8}$': range,
} as const;

export const productsQuery = {
  type: 'object',
  maxProperties: LISTING_LIMITS.parameters,
  additionalProperties: false,
  properties: {
    ...filterProperties,
    page: { type: 'integer', minimum: 1, maximum: LISTING_LIMITS.page, default: 1 },
    sort: { type: 'string', enum: ['popular', 'price-asc', 'price-desc', 'name', 'newest'], default: 'popular' },
  },
  patternProperties: attributeFilters,
} as const;

export const facetsQuery = {
  type: 'object',
  maxProperties: LISTING_LIMITS.parameters,
  additionalProperties: false,
  properties: filterProperties,
  patternProperties: attributeFilters,
} as const;

export const variantDetailBody = {
  type: 'object',
  required: ['v_id'],
  properties: { v_id: { type: 'integer', minimum: 1, maximum: 2_147_483_647 } },
} as const;
