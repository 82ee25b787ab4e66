/**
 * A route made from the contract: `callRoute(calls, 'GET /api/redirect')` gives Fastify the call's
 * method, path (below the /api prefix the routes are registered under) and schemas, so a route
 * cannot drift from what the parts were promised:
 * - params, query and body are validated with the call's schemas (infra/http/validation.ts);
 * - the answer is serialised with the call's answer schema, so a field it does not name (a
 *   password hash, an internal id) never leaves the server;
 * - the OpenAPI document (/api/openapi.json, infra/http/openapi.ts) is generated from the same schemas;
 * - with the TypeBox type provider the handler's request and answer are typed from them.
 *
 *   const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
 *   app.route({ ...callRoute(contentCalls, 'GET /api/redirect'), handler: async (request) => … });
 */
import { Type, type TNull, type TSchema } from '@sinclair/typebox';
import { ApiErrorBody, type CallSchema } from '@shop/shared-kernel/schemas';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
type StatusOf<C extends CallSchema> = C extends { status: infer S extends number } ? S : 200;
type ErrorOf<C extends CallSchema> = C extends { error: infer E extends TSchema } ? E : typeof ApiErrorBody;
type AnswerOf<C extends CallSchema> = C extends { status: 204 } ? TNull : C['answer'];

export type CallRouteSchema<C extends CallSchema> = (C extends { params: infer P extends TSchema } ? { params: P } : unknown) &
  (C extends { query: infer Q extends TSchema } ? { querystring: Q } : unknown) &
  (C extends { body: infer B extends TSchema } ? { body: B } : unknown) & {
    summary?: string;
    tags: string[];
    response: { [S in StatusOf<C> | (StatusOf<C> extends 201 ? 200 : never)]: AnswerOf<C> } & { '4xx': ErrorOf<C>; '5xx': ErrorOf<C> };
  };

/** "204 No Content" has no body; OpenAPI still wants a schema for it. */
const NO_CONTENT = Type.Null({ description: 'Bez obsahu' });

export function callRoute<T extends Record<string, CallSchema>, K extends keyof T & `${Method} /api/${string}`>(
  calls: T,
  name: K,
): { method: Method; url: string; schema: CallRouteSchema<T[K]> } {
  const space = name.indexOf(' ');
  const method = name.slice(0, space) as Method;
  const path = name.slice(space + 1);
  const call = calls[name] as CallSchema;
  const status = call.status ?? 200;
  const schema: Record<string, unknown> = {
    // The first path segment below /api names the group in the OpenAPI document.
    tags: [path.split('/')[2] ?? 'api'],
    // A call that creates (201) answers 200 with the same shape when the thing existed already
    // (an idempotent retry): both are serialised with the answer's schema.
    response: {
      ...(status === 201 ? { 200: call.answer } : {}),
      [status]: status === 204 ? NO_CONTENT : call.answer,
      '4xx': call.error ?? ApiErrorBody,
      '5xx': call.error ?? ApiErrorBody,
    },
  };
  if (call.summary) schema.summary = call.summary;
  if (call.params) schema.params = call.params;
  if (call.query) schema.querystring = call.query;
  if (call.body) schema.body = call.body;
  return { method, url: path.slice('/api'.length), schema: schema as CallRouteSchema<T[K]> };
}
