/**
 * The operator's token: the one check every operator route of the API makes (the operator's
 * tools, /metrics, the telemetry summary, order and complaint moves). /ops signs operators in
 * with a name and a password instead (domains/ops/console).
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../http/errors.ts';
import { bearerToken } from './auth.ts';

const OPERATOR_HEADER = 'x-operator-token';

/** Wrong operator tokens allowed per client address in a window; beyond it every try is refused (429) until it ends. */
export const OPERATOR_FAILURE_LIMIT = { max: 10, windowMs: 15 * 60_000 };
/** Addresses remembered at most (the oldest window is dropped first), so the table cannot grow without bound. */
const MAX_TRACKED = 10_000;

const failures = new Map<string, { count: number; since: number }>();

function failureKey(request: FastifyRequest, expected: string) {
  // Keyed by the token too: every API instance (tests run several in one process) counts on its own.
  return `${expected.length}:${expected.slice(0, 8)}|${request.ip}`;
}

function blocked(key: string, now: number): boolean {
  const entry = failures.get(key);
  if (!entry) return false;
  if (now - entry.since > OPERATOR_FAILURE_LIMIT.windowMs) {
    failures.delete(key);
    return false;
  }
  return entry.count >= OPERATOR_FAILURE_LIMIT.max;
}

function recordFailure(key: string, now: number) {
  const entry = failures.get(key);
  if (entry && now - entry.since <= OPERATOR_FAILURE_LIMIT.windowMs) entry.count += 1;
  else failures.set(key, { count: 1, since: now });
  if (failures.size > MAX_TRACKED) failures.delete(failures.keys().next().value!);
}

const same = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/**
 * Checks a token the request presents as the operator's. Wrong tokens are counted per client
 * address; past the limit the address is refused with 429 for the rest of the window, right
 * token or not, so the token cannot be guessed by trying.
 */
function checkOperatorToken(request: FastifyRequest, given: string | undefined, expected: string): boolean {
  if (!expected || !given) return false;
  const key = failureKey(request, expected);
  const now = Date.now();
  if (blocked(key, now)) {
    throw new ApiError(429, 'rate_limited', 'Príliš veľa nesprávnych pokusov o token operátora. Skúste to znova o 15 minút.');
  }
  if (same(given, expected)) return true;
  recordFailure(key, now);
  return false;
}

/**
 * The operator's token as the request presents it: X-Operator-Token, or (`bearer`) a bearer
 * token, as Prometheus and the operator's scripts send it. A route a shopper uses too reads the
 * header only: there a bearer token is the shopper's session, never a wrong operator token.
 */
function presentedToken(request: FastifyRequest, bearer: boolean): string | undefined {
  const header = request.headers[OPERATOR_HEADER];
  if (typeof header === 'string') return header;
  return bearer ? (bearerToken(request) ?? undefined) : undefined;
}

/** On a route a shopper uses too: true when the request carries the operator's token (X-Operator-Token). */
export function isOperator(request: FastifyRequest, operatorToken: string): boolean {
  return checkOperatorToken(request, presentedToken(request, false), operatorToken);
}

/** On a route for the operator alone: 401 unless the request carries the operator's token (header or bearer; 429 after too many wrong ones). */
export function requireOperator(request: FastifyRequest, operatorToken: string): void {
  if (!checkOperatorToken(request, presentedToken(request, true), operatorToken)) {
    throw new ApiError(401, 'unauthorized', 'Chýba alebo nesedí token operátora.');
  }
}

/** `requireOperator` as a route's or a plugin's hook (onRequest, preValidation). */
export const operatorOnly =
  (operatorToken: string) =>
  async (request: FastifyRequest): Promise<void> =>
    requireOperator(request, operatorToken);
