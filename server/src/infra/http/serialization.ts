/**
 * Answers are serialised by their schema (fast-json-stringify, as Fastify does by default): a field
 * outside the schema never leaves the server. Each schema object is compiled once per process, not
 * once per server built: building a serialiser costs more than a thousand answers, and a test
 * process builds a server per file.
 */
import fastJsonStringify from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify';

const serializers = new WeakMap<object, (data: unknown) => string>();

export const serializerCompiler: FastifySerializerCompiler<object> = ({ schema }) => {
  let serialize = serializers.get(schema);
  if (!serialize) {
    // No shared schemas (app.addSchema) in this server: a schema compiles the same on every server.
    serialize = fastJsonStringify(schema) as (data: unknown) => string;
    serializers.set(schema, serialize);
  }
  return serialize;
};
