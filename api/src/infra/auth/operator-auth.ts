import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../http/errors.ts';
import type { CheckoutOptions } from '../checkout-options.ts';

export const OPERATOR_HEADER = 'x-operator-token';

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
export function checkOperatorToken(request: FastifyRequest, given: string | undefined, expected: string): boolean {
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

/** True when the request carries the operator's token (X-Operator-Token). */
export function isOperator(request: FastifyRequest, opts: Pick<CheckoutOptions, 'operatorToken'>): boolean {
  const given = request.headers[OPERATOR_HEADER];
  return checkOperatorToken(request, typeof given === 'string' ? given : undefined, opts.operatorToken);
}

export function requireOperator(request: FastifyRequest, opts: Pick<CheckoutOptions, 'operatorToken'>): void {
  if (!isOperator(request, opts)) throw new ApiError(401, 'unauthorized', 'Chýba alebo nesedí token operátora.');
}
