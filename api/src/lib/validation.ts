/**
 * Request validation: the options of Fastify's default Ajv, except that JSON bodies are checked as
 * they are, without type coercion (a quantity `"0x10"` or `"1e3"` is refused, not read as 16 or
 * 1000). Query strings and path parameters are text by nature and keep coercion into the types
 * their schemas name.
 */
import { Ajv, type Options } from 'ajv';
import type { FastifyRequest, FastifySchemaCompiler } from 'fastify';
import { ApiError } from './errors.ts';

const base: Options = { useDefaults: true, removeAdditional: true, addUsedSchema: false, allErrors: false };
const coercing = new Ajv({ ...base, coerceTypes: 'array' });
const exact = new Ajv({ ...base, coerceTypes: false });

export const validatorCompiler: FastifySchemaCompiler<object> = ({ schema, httpPart }) =>
  (httpPart === 'body' ? exact : coercing).compile(schema);

/** True when a parsed value holds a NUL character anywhere (PostgreSQL's text cannot store one). */
function hasNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (depth > 64 || value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return false;
  if (Array.isArray(value)) return value.some((item) => hasNul(item, depth + 1));
  return Object.entries(value).some(([key, item]) => key.includes('\u0000') || hasNul(item, depth + 1));
}

/** Refuses a NUL character in the path, query or JSON body, before any route runs (400, not a database error). */
export async function rejectNulCharacters(request: FastifyRequest): Promise<void> {
  if (hasNul(request.params) || hasNul(request.query) || hasNul(request.body)) {
    throw new ApiError(400, 'bad_request', 'Požiadavka obsahuje nepovolený znak.');
  }
}

/** A database id in a path or body: a positive 32-bit integer (PostgreSQL's integer refuses more). */
export const ID_SCHEMA = { type: 'integer', minimum: 1, maximum: 2_147_483_647 } as const;
