/**
 * Request validation: the options of Fastify's default Ajv, except that JSON bodies are checked as
 * they are, without type coercion (a quantity `"0x10"` or `"1e3"` is refused, not read as 16 or
 * 1000). Query strings and path parameters are text by nature and keep coercion into the types
 * their schemas name.
 */
import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import type { FastifyRequest, FastifySchemaCompiler } from 'fastify';
import { MAX_RECORD_ID } from '@shop/shared-kernel/contract';
import { ApiError } from './errors.ts';

const base: Options = { useDefaults: true, removeAdditional: true, addUsedSchema: false, allErrors: false, strictNumbers: true };
const coercing = new Ajv({ ...base, coerceTypes: 'array' });
const exact = new Ajv({ ...base, coerceTypes: false });

/** Where a value holds a number that is not finite (`/id`), or null. */
function nonFinitePath(value: unknown, path = '', depth = 0): string | null {
  if (typeof value === 'number') return Number.isFinite(value) ? null : path;
  if (depth > 8 || value === null || typeof value !== 'object') return null;
  for (const [key, item] of Object.entries(value)) {
    const found = nonFinitePath(item, `${path}/${key}`, depth + 1);
    if (found !== null) return found;
  }
  return null;
}

/**
 * Ajv coerces "Infinity" or "1e400" in a query string or path into Infinity and then skips
 * `minimum`/`maximum` (it checks them only on finite numbers): such a value would reach the
 * database (PostgreSQL refuses it with an error). The coerced result is refused as a type error.
 */
function finiteOnly(validate: ValidateFunction): ValidateFunction {
  const checked = ((data: unknown, context?: Parameters<ValidateFunction>[1]) => {
    if (!validate(data, context)) {
      checked.errors = validate.errors ?? null;
      return false;
    }
    const path = nonFinitePath(data);
    const error: ErrorObject = {
      instancePath: path ?? '',
      schemaPath: '#',
      keyword: 'type',
      params: { type: 'number' },
      message: 'must be a finite number',
    };
    checked.errors = path === null ? null : [error];
    return path === null;
  }) as ValidateFunction;
  // Fastify hands Ajv's own functions their parent (so a coerced root is written back): keep that.
  return Object.assign(checked, { schema: validate.schema, schemaEnv: validate.schemaEnv });
}

/**
 * Compiled once per schema object and part, for every server the process builds: the schemas are
 * the contract's module-level constants, and a test process builds a server per file (Ajv's own
 * cache keeps the compiled function, not the coercion wrapper around it).
 */
const validators = { body: new WeakMap<object, ValidateFunction>(), other: new WeakMap<object, ValidateFunction>() };

export const validatorCompiler: FastifySchemaCompiler<object> = ({ schema, httpPart }) => {
  const cache = httpPart === 'body' ? validators.body : validators.other;
  let validate = cache.get(schema);
  if (!validate) {
    validate = httpPart === 'body' ? exact.compile(schema) : finiteOnly(coercing.compile(schema));
    cache.set(schema, validate);
  }
  return validate;
};

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
export const ID_SCHEMA = { type: 'integer', minimum: 1, maximum: MAX_RECORD_ID } as const;
