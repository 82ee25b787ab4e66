/** JSON schemas of the catalogue calls (validated and coerced by Fastify before the handler runs). */

const slug = { type: 'string', minLength: 1, maxLength: 200 } as const;

export const urlParams = {
  type: 'object',
  required: ['url'],
  properties: { url: slug },
} as const;

export const productsQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    category: slug,
    brand: slug,
    sale: { type: 'integer', enum: [0, 1] },
    page: { type: 'integer', minimum: 1, maximum: 1_000_000, default: 1 },
    sort: { type: 'string', enum: ['popular', 'price-asc', 'price-desc', 'name', 'newest'], default: 'popular' },
  },
} as const;

export const variantDetailBody = {
  type: 'object',
  required: ['v_id'],
  properties: { v_id: { type: 'integer', minimum: 1, maximum: 2_147_483_647 } },
} as const;
