/**
 * Who acts on an operator route: the one plugin every operator route of the shop uses. It decorates
 * the request with `actor`:
 * - an operator, by the operator origin's session cookie (`__Host-shop_ops`: HttpOnly, Path=/,
 *   SameSite=Strict, Secure; set and read only on the operator origin);
 * - an area team, by its release credential as a Bearer token (the release routes of its own area);
 * - a machine, by a machine credential as a Bearer token (Prometheus: /api/metrics only).
 *
 * A route says what it needs in its config (`config: { access }`); a route without one is left alone.
 * Refusals are ApiErrors (401 nobody, 403 not allowed, with `refusal` where the console acts on it),
 * and a refusal of a known actor is written to the audit log. The CSRF rule of the operator origin
 * lives here too: a request that may change something, sent with the cookie (or signing in), must be
 * JSON and name the operator origin exactly in `Origin` (and `Sec-Fetch-Site: same-origin` when the
 * browser sends it); and no request of another page (`Sec-Fetch-Site` cross-site or same-site, a read
 * too) is answered with the cookie, so a shop page cannot even make the console read for it.
 */
import { serialize as serializeCookie } from 'cookie';
import { readCookie } from '../http/cookies.ts';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, forbidden, unauthorized } from '../http/errors.ts';
import { bearerToken } from './auth.ts';

/** An operator's session, as the operator accounts resolve a cookie (domains/operators). */
export type OperatorActor = {
  kind: 'operator';
  name: string;
  sessionId: number;
  operatorId: number;
  expiresAt: string;
  idleUntil: string;
  /** False: the session may only set up the second factor. */
  secondFactor: boolean;
  /** The last code typed in this session (null: none yet). */
  reauthAt: string | null;
};
export type TeamActor = { kind: 'team'; name: string; area: string };
export type MachineActor = { kind: 'machine'; name: string; scope: 'metrics' };
export type Actor = OperatorActor | TeamActor | MachineActor;

/**
 * What a route needs:
 * - `none`: the actor is resolved when there is one, nothing is refused (sign-in, who-am-I, sign-out);
 * - `setup`: any signed-in operator, one without a second factor included (setting it up);
 * - `operator`: an operator who passed the second factor;
 * - `release`: such an operator with a fresh code for a change (GET needs none), or an area team
 *   (the route checks the part);
 * - `metrics`: a machine credential of the metrics scope.
 */
export type Access = 'none' | 'setup' | 'operator' | 'release' | 'metrics';

export type AuditEntry = { actor: string; action: string; part: string | null; allowed: boolean; detail?: string | null };

declare module 'fastify' {
  interface FastifyRequest {
    /** Who acts (operatorAuth); null when nobody is known. */
    actor: Actor | null;
    /** Writes an action of this request's actor to the audit log. */
    audit(entry: { action: string; part?: string | null; allowed?: boolean; detail?: string | null }): Promise<void>;
  }
  interface FastifyContextConfig {
    /** What the route needs of who acts (operatorAuth); a route without it is not an operator route. */
    access?: Access;
    /** The action named in the audit log when the route refuses a known actor (default `read` for GET, else the route's path). */
    action?: string;
  }
}

/** The operator's session cookie: the `__Host-` prefix keeps it to this origin exactly (no Domain, Path=/, Secure). */
export const OPERATOR_COOKIE = '__Host-shop_ops';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

export type OperatorAuthOptions = {
  /**
   * The operator origin (OPS_URL's origin): the only `Origin` a change made with the cookie may come
   * from. Null on the shop's origin: the cookie is never read there and only Bearer credentials count.
   */
  operatorOrigin: string | null;
  /** The operator a session cookie's secret opens (and its idle end moved on), or null. */
  session?: (secret: string) => Promise<Omit<OperatorActor, 'kind'> | null>;
  /** The team or machine a Bearer credential belongs to, or null. */
  bearer: (token: string) => Promise<TeamActor | MachineActor | null>;
  /** The audit log (domains/releases/identities.repository.ts `audit`). */
  audit: (entry: AuditEntry) => Promise<void>;
  /** How long a code typed counts for a release action (OPERATOR_REAUTH_MS). */
  reauthMs: number;
  now?: () => Date;
};

/** The operator's cookie is Secure on https, and on a loopback address, which browsers treat as secure too. */
export function operatorCookieSecure(operatorOrigin: string): boolean {
  const url = new URL(operatorOrigin);
  return url.protocol === 'https:' || LOOPBACK.has(url.hostname);
}

/** The cookie's secret as sent, if any. */
export function operatorCookieSecret(request: FastifyRequest): string | undefined {
  return readCookie(request.headers.cookie, OPERATOR_COOKIE);
}

/** Sets (maxAgeSeconds > 0) or clears the operator's session cookie. */
export function setOperatorCookie(reply: FastifyReply, operatorOrigin: string, value: string, maxAgeSeconds: number): void {
  reply.header(
    'set-cookie',
    serializeCookie(OPERATOR_COOKIE, value, {
      httpOnly: true,
      sameSite: 'strict',
      path: '/',
      secure: operatorCookieSecure(operatorOrigin),
      maxAge: maxAgeSeconds,
    }),
  );
}

const CROSS_ORIGIN = 'Zmena z iného pôvodu alebo bez JSON bola odmietnutá. Otvorte konzolu operátora na jej adrese a skúste to znova.';
const CROSS_PAGE = 'Požiadavka z inej stránky bola odmietnutá. Otvorte konzolu operátora na jej adrese.';

/**
 * The operator origin's CSRF rule: a change must be JSON (a form of another page cannot send it
 * without a preflight) and name this origin exactly in `Origin`, which the browser sets itself; a
 * browser that sends `Sec-Fetch-Site` must call it `same-origin` (a sibling subdomain is same-site,
 * not same-origin).
 */
export function assertOperatorOrigin(request: FastifyRequest, operatorOrigin: string): void {
  if (SAFE_METHODS.has(request.method)) {
    // A read with the cookie from another page (the shop's, a sibling subdomain's) is refused too:
    // the browser would not let that page see the answer, but the console would have read for it.
    const site = request.headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin' && site !== 'none') throw forbidden(CROSS_PAGE);
    return;
  }
  const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  const site = request.headers['sec-fetch-site'];
  if (type !== 'application/json' || request.headers.origin !== operatorOrigin || (site !== undefined && site !== 'same-origin'))
    throw forbidden(CROSS_ORIGIN);
}

const actorPart = (request: FastifyRequest) => (request.params as { part?: unknown } | undefined)?.part;

/** Why an actor is refused on a route, or null when it may go on (a team's part is the route's to check). */
function refusalOf(access: Access, actor: Actor, request: FastifyRequest, reauthMs: number, now: Date): ApiError | null {
  if (access === 'none') return null;
  if (access === 'metrics')
    return actor.kind === 'machine' && actor.scope === 'metrics' ? null : forbidden('Tento prístup nesmie čítať metriky.');
  if (actor.kind === 'machine') return forbidden('Prístup stroja smie len to, na čo bol vydaný (metriky).');
  if (actor.kind === 'team') {
    if (access === 'release') return null;
    return forbidden(`Tento prístup nesmie otvoriť stránku operátora: patrí tímu oblasti ${actor.area}.`);
  }
  if (access === 'setup') return null;
  if (!actor.secondFactor)
    return new ApiError(
      403,
      'forbidden',
      'Najprv si nastavte druhý faktor overenia (aplikáciu s jednorazovými kódmi); dovtedy nemôžete nič iné.',
      'second_factor_required',
    );
  if (access === 'release' && !SAFE_METHODS.has(request.method)) {
    const fresh = actor.reauthAt !== null && now.getTime() - Date.parse(actor.reauthAt) <= reauthMs;
    if (!fresh) return new ApiError(403, 'forbidden', 'Potvrďte túto akciu kódom z aplikácie (platí 5 minút).', 'reauth_required');
  }
  return null;
}

/**
 * The plugin. On the operator origin it reads the cookie and applies the CSRF rule; on the shop's
 * origin (`operatorOrigin` null) only Bearer credentials of routes that ask for them. It does not
 * encapsulate: the hooks apply to the instance it is registered on.
 */
const plugin: FastifyPluginAsync<OperatorAuthOptions> = async (app: FastifyInstance, options) => {
  const now = () => options.now?.() ?? new Date();
  app.decorateRequest('actor', null);
  app.decorateRequest('audit', async function () {
    throw new Error('operatorAuth: audit() outside an operator route');
  });

  app.addHook('onRequest', async (request) => {
    request.actor = null;
    const config = request.routeOptions.config;
    const access = config.access;
    const given = bearerToken(request);
    const cookie = options.operatorOrigin === null || given ? undefined : operatorCookieSecret(request);
    // Every change the cookie makes, and signing in: JSON from this origin only.
    if (options.operatorOrigin !== null && !given && (cookie !== undefined || access === 'none'))
      assertOperatorOrigin(request, options.operatorOrigin);
    if (access === undefined) return;
    if (given) request.actor = await options.bearer(given);
    else if (cookie && options.session) {
      const session = await options.session(cookie);
      request.actor = session ? { kind: 'operator', ...session } : null;
    }
    const actor = request.actor;
    request.audit = async (entry) => {
      if (!actor) throw new Error('operatorAuth: audit() without an actor');
      await options.audit({ actor: actor.name, part: null, allowed: true, ...entry });
    };
    if (access === 'none') return;
    if (!actor) {
      if (given) throw unauthorized('Neplatný prístup. Operátor sa prihlasuje v konzole operátora menom, heslom a kódom.');
      throw unauthorized('Prihláste sa ako operátor.');
    }
    const refused = refusalOf(access, actor, request, options.reauthMs, now());
    if (!refused) return;
    // A machine or a team trying what it may not is worth knowing; an operator asked for a code is not.
    if (actor.kind !== 'operator') {
      const part = actorPart(request);
      await options.audit({
        actor: actor.name,
        action: config.action ?? (request.method === 'GET' ? 'read' : (request.routeOptions.url ?? request.url)),
        part: typeof part === 'string' ? part.slice(0, 20) : null,
        allowed: false,
      });
    }
    throw refused;
  });
};
// Not encapsulated, as fastify-plugin would mark it: its hooks and decorations are the instance's.
(plugin as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;
export const operatorAuth = plugin;
