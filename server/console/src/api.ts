/**
 * The console's one way to the operator origin's API: a call named as the contract names it
 * (`call('GET /api/ops/releases')`), its arguments and answer typed from the contract's tables, sent
 * with this origin's session cookie (same origin, HttpOnly: no script reads it) and JSON for every
 * change (the origin's CSRF rule wants it). A refusal is a ConsoleError with the server's Slovak
 * message, its code and, where the console acts on it, its `refusal` (a fresh code, a second factor).
 */
import type { ApiCalls, CallName } from '@shop/shared-kernel/contract';

type Query = Record<string, string | number | boolean | null | undefined>;

/** The call's path with its `:params` filled in (URI-encoded), and its query of the defined values. */
function urlOf(
  name: string,
  params: Record<string, string | number> | undefined,
  query: Query | undefined,
): { method: string; url: string } {
  const [method = 'GET', pattern = ''] = name.split(' ');
  const path = pattern.replace(/:([A-Za-z_]+)/g, (_, param: string) => encodeURIComponent(String(params?.[param] ?? '')));
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined && value !== null) search.append(key, String(value));
  const text = search.toString();
  return { method, url: text ? `${path}?${text}` : path };
}

type Def<K extends CallName> = ApiCalls[K];
type ParamsArg<C> = C extends { params: infer P } ? { params: P } : { params?: undefined };
type QueryArg<C> = C extends { query: infer Q } ? (Partial<Q> extends Q ? { query?: Q } : { query: Q }) : { query?: undefined };
type BodyArg<C> = C extends { body: infer B } ? (Partial<B> extends B ? { body?: B } : { body: B }) : { body?: undefined };
export type CallArgs<K extends CallName> = ParamsArg<Def<K>> & QueryArg<Def<K>> & BodyArg<Def<K>>;
export type CallAnswer<K extends CallName> = Def<K>['answer'];
type ArgsOf<A> = Partial<A> extends A ? [args?: A] : [args: A];

/** What the server refused, in its words; `status` 0 when the request itself failed. */
export class ConsoleError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly refusal?: string,
  ) {
    super(message);
    this.name = 'ConsoleError';
  }
}

const UNREACHABLE = 'Server je momentálne nedostupný. Skúste to, prosím, znova.';
const UNREADABLE = 'Server vrátil neplatnú odpoveď.';

export async function call<K extends CallName>(name: K, ...[args]: ArgsOf<CallArgs<K>>): Promise<CallAnswer<K>> {
  const given = (args as unknown as { params?: Record<string, string | number>; query?: Query; body?: unknown } | undefined) ?? {};
  const { method, url } = urlOf(name, given.params, given.query);
  const init: RequestInit = { method, credentials: 'same-origin', cache: 'no-store', headers: { accept: 'application/json' } };
  if (method !== 'GET') {
    init.headers = { ...init.headers, 'content-type': 'application/json' };
    init.body = JSON.stringify(given.body ?? {});
  }
  let response: Response;
  try {
    response = await fetch(url, init);
  } catch {
    throw new ConsoleError(0, 'internal', UNREACHABLE);
  }
  const text = await response.text().catch(() => '');
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    throw new ConsoleError(response.status, 'internal', UNREADABLE);
  }
  if (!response.ok) {
    const error = (parsed as { error?: { code?: string; message?: string; refusal?: string } } | undefined)?.error;
    throw new ConsoleError(response.status, error?.code ?? 'internal', error?.message ?? UNREADABLE, error?.refusal);
  }
  return parsed as CallAnswer<K>;
}

/** Whether a refusal means the session is over (expired, idle, revoked): the console signs in again. */
export const sessionEnded = (error: unknown) => error instanceof ConsoleError && error.status === 401;

/** The text a failure shows. */
export const messageOf = (error: unknown) => (error instanceof Error ? error.message : 'Požiadavka zlyhala.');
