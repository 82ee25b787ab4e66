/** JSON schemas of the search calls; the limits are those of catalog/limits.ts. */
import { SEARCH_LIMITS } from '../catalog/limits.ts';

const text = { type: 'string', minLength: 1, maxLength: SEARCH_LIMITS.textLength } as const;

export const searchQuery = {
  type: 'object',
  required: ['q'],
  maxProperties: SEARCH_LIMITS.parameters,
  additionalProperties: false,
  properties: {
    q: text,
    page: { type: 'integer', minimum: 1, maximum: SEARCH_LIMITS.page, default: 1 },
  },
} as const;

export const suggestQuery = {
  type: 'object',
  required: ['q'],
  maxProperties: SEARCH_LIMITS.parameters,
  additionalProperties: false,
  properties: { q: text },
} as const;
