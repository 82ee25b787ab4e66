/**
 * What every call shares: the one error shape, a page of results, and how a call's schemas are
 * written down (`defineCalls`) and turned into the TypeScript types the parts use (`CallTypes`).
 *
 * The schemas are the contract: the API validates requests and serialises answers with them
 * (a field outside an answer's schema never leaves the server), the OpenAPI document is generated
 * from them, and the browser's types are derived from them. Browser code imports only types from
 * here (`import type`), so TypeBox never reaches a page.
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';

export type ApiErrorCode = Static<typeof ApiErrorCode>;
export const ApiErrorCode = Type.Union([
  Type.Literal('bad_request'),
  Type.Literal('validation_failed'),
  Type.Literal('unauthorized'),
  Type.Literal('forbidden'),
  Type.Literal('not_found'),
  Type.Literal('method_not_allowed'),
  Type.Literal('conflict'),
  Type.Literal('rate_limited'),
  Type.Literal('internal'),
]);

/**
 * Every 4xx and 5xx answer; the message is Slovak, for the shopper. `refusal` names a refusal a
 * program acts on (a release refused, or the operator's console asked for a fresh code).
 */
export type ApiErrorBody = Static<typeof ApiErrorBody>;
export const ApiErrorBody = Type.Object({
  error: Type.Object({ code: ApiErrorCode, message: Type.String(), refusal: Type.Optional(Type.String({ maxLength: 40 })) }),
});

export type PageMeta = Static<typeof PageMeta>;
export const PageMeta = Type.Object({
  page: Type.Integer(),
  pageSize: Type.Integer(),
  total: Type.Integer(),
  pageCount: Type.Integer(),
});

/** One page of a list, with where it is in the whole. */
export type Paged<T> = { data: T[]; meta: PageMeta };
export const Paged = <T extends TSchema>(item: T) => Type.Object({ data: Type.Array(item), meta: PageMeta });

export type ProductSort = Static<typeof ProductSort>;
export const ProductSort = Type.Union([
  Type.Literal('popular'),
  Type.Literal('price-asc'),
  Type.Literal('price-desc'),
  Type.Literal('name'),
  Type.Literal('newest'),
]);

/** `{ ok: true }`: an answer that only confirms. */
export const Ok = Type.Object({ data: Type.Object({ ok: Type.Literal(true) }) });

/**
 * One call's schemas. The name of the call ("GET /api/menu") is its method and exact path;
 * `answer` is the body of its success answer (status `status`, 200 unless said; 204 has no body).
 */
export type CallSchema = {
  params?: TSchema;
  query?: TSchema;
  body?: TSchema;
  answer: TSchema;
  status?: 200 | 201 | 202 | 204;
  /** The 4xx/5xx body when a call's errors say more than ApiErrorBody (default ApiErrorBody). */
  error?: TSchema;
  /** One line for the OpenAPI document. */
  summary?: string;
  /** The body is multipart/form-data (files), outside the JSON schemas: the browser sends a FormData. */
  multipart?: true;
};

/** A table of calls, checked against CallSchema with its literal types kept. */
export function defineCalls<const T extends Record<`${'GET' | 'POST' | 'PUT' | 'DELETE'} /api/${string}`, CallSchema>>(calls: T): T {
  return calls;
}

type Part<C, K extends 'params' | 'query' | 'body'> = C extends { [P in K]: infer S extends TSchema } ? { [P in K]: Static<S> } : unknown;
type Multipart<C> = C extends { multipart: true } ? { body: FormData } : unknown;

/** The TypeScript side of one call: `answer`, and `params`, `query`, `body` where it has them (a FormData when multipart). */
export type CallType<C extends CallSchema> = { answer: C extends { status: 204 } ? void : Static<C['answer']> } & Part<C, 'params'> &
  Part<C, 'query'> &
  Part<C, 'body'> &
  Multipart<C>;

export type CallTypes<T extends Record<string, CallSchema>> = { [K in keyof T]: CallType<T[K]> };
