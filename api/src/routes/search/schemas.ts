/** JSON schemas of the search calls. */

export const searchQuery = {
  type: 'object',
  required: ['q'],
  properties: {
    q: { type: 'string', minLength: 1, maxLength: 200 },
    page: { type: 'integer', minimum: 1, maximum: 1_000_000, default: 1 },
  },
} as const;

export const suggestQuery = {
  type: 'object',
  required: ['q'],
  properties: { q: { type: 'string', minLength: 1, maxLength: 200 } },
} as const;
