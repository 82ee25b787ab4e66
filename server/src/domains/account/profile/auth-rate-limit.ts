/**
 * Sign-in, sign-up and password reset limits. Per address: every such request from one IP address.
 * Per account (the e-mail sent, registered or not, so the limit reveals nothing): failed sign-ins,
 * and sign-up and reset requests.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { ACCOUNT_MESSAGES } from '@shop/shared-kernel/rules';
import { ApiError } from '../../../infra/http/errors.ts';
import type { AuthRateLimit } from '../../../infra/cache/rate-limit.ts';
import { rateLimitStore, type SharedState } from '../../../infra/cache/shared-state.ts';

const accountKey = (request: FastifyRequest) => {
  const body = request.body as { email?: unknown } | undefined;
  return `account:${typeof body?.email === 'string' ? body.email.trim().toLowerCase() : ''}`;
};

const tooMany = () => new ApiError(429, 'rate_limited', ACCOUNT_MESSAGES.tooMany);

export type AuthLimiter = {
  /**
   * Counts the request against its address's limit and checks the account's: `'count'` also counts
   * it against the account (sign-up, reset request), `'check'` only refuses a spent account (sign-in).
   */
  limit(request: FastifyRequest, account: 'count' | 'check'): Promise<void>;
  /** Counts the request against its address's limit only (a reset link carries no e-mail). */
  limitAddress(request: FastifyRequest): Promise<void>;
  /** A failed sign-in counts against the account. */
  countFailure(request: FastifyRequest): Promise<void>;
};

/** Registers the rate-limit plugin in the scope of `app` and answers the limiter its routes use. */
export async function registerAuthRateLimit(app: FastifyInstance, limits: AuthRateLimit, shared: SharedState | null): Promise<AuthLimiter> {
  await app.register(rateLimit, { global: false, ...rateLimitStore(shared, 'auth') });
  const perAddress = app.createRateLimit({
    max: limits.perAddress.max,
    timeWindow: limits.perAddress.timeWindowMs,
    keyGenerator: (request) => `address:${request.ip}`,
  });
  const perAccount = app.createRateLimit({
    max: limits.perAccount.max,
    timeWindow: limits.perAccount.timeWindowMs,
    keyGenerator: accountKey,
  });
  const limitAddress = async (request: FastifyRequest) => {
    const byAddress = await perAddress(request);
    if (!byAddress.isAllowed && byAddress.isExceeded) throw tooMany();
  };
  return {
    limitAddress,
    async limit(request, account) {
      await limitAddress(request);
      const byAccount = await perAccount(request, { increment: account === 'count' });
      if (!byAccount.isAllowed && (account === 'count' ? byAccount.isExceeded : byAccount.remaining <= 0)) throw tooMany();
    },
    async countFailure(request) {
      await perAccount(request);
    },
  };
}
