/**
 * Request validation: the options of Fastify's default Ajv, except that JSON bodies are checked as
 * they are, without type coercion (a quantity `"0x10"` or `"1e3"` is refused, not read as 16 or
 * 1000). Query strings and path parameters are text by nature and keep coercion into the types
 * their schemas name.
 */
import { Ajv, type Options } from 'ajv';
import type { FastifySchemaCompiler } from 'fastify';

const base: Options = { useDefaults: true, removeAdditional: true, addUsedSchema: false, allErrors: false };
const coercing = new Ajv({ ...base, coerceTypes: 'array' });
const exact = new Ajv({ ...base, coerceTypes: false });

export const validatorCompiler: FastifySchemaCompiler<object> = ({ schema, httpPart }) =>
  (httpPart === 'body' ? exact : coercing).compile(schema);
