import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import type { AccountCalls, ApiCalls } from '@shop/shared-kernel/contract';
import { ACCOUNT_MESSAGES, checkPassword } from '@shop/shared-kernel/rules';
import { bearerToken } from '../../lib/auth.ts';
import { ApiError, unauthorized } from '../../lib/errors.ts';
import { DUMMY_HASH, verifyPassword } from '../../lib/password.ts';
import type { ApiDeps } from '../deps.ts';
import { requireUser } from './require-user.ts';
import { UserRepository } from './user.repository.ts';
import { AccountService } from './account.service.ts';

type Call<K extends keyof ApiCalls> = ApiCalls[K];
type Acc<K extends keyof AccountCalls> = AccountCalls[K];

/** One message for an unknown e-mail and a wrong password, so the answer reveals neither. */
export const WRONG_CREDENTIALS = 'Nesprávny e-mail alebo heslo';

export type RateLimitWindow = { max: number; timeWindowMs: number };
/**
 * Sign-in, sign-up and password reset limits. Per address: every such request from one IP address.
 * Per account (the e-mail sent, registered or not, so the limit reveals nothing): failed sign-ins,
 * and sign-up and reset requests.
 */
export type AuthRateLimit = { perAddress: RateLimitWindow; perAccount: RateLimitWindow };
export const DEFAULT_AUTH_RATE_LIMIT: AuthRateLimit = {
  perAddress: { max: 60, timeWindowMs: 10 * 60_000 },
  perAccount: { max: 5, timeWindowMs: 15 * 60_000 },
};

export type AccountOptions = ApiDeps & {
  /** The shop's public origin for links in e-mails (configuration; never taken from the request). */
  publicUrl: string;
  rateLimit?: AuthRateLimit;
};

const email = { type: 'string', minLength: 3, maxLength: 254 } as const;
const password = { type: 'string', minLength: 1, maxLength: 256 } as const;

const loginBody = { type: 'object', required: ['email', 'password'], properties: { email, password } } as const;
const logoutBody = {
  type: 'object',
  required: ['authHash'],
  properties: { authHash: { type: 'string', maxLength: 4096 } },
} as const;
const registerBody = {
  type: 'object',
  required: ['email', 'password', 'name'],
  properties: { email, password, name: { type: 'string', maxLength: 120 }, newsletter: { type: 'boolean' } },
} as const;
const resetBody = { type: 'object', required: ['email'], properties: { email } } as const;
const resetConfirmBody = {
  type: 'object',
  required: ['token', 'password'],
  properties: { token: { type: 'string', minLength: 1, maxLength: 200 }, password },
} as const;
const companySchema = {
  anyOf: [
    { type: 'null' },
    {
      type: 'object',
      required: ['name', 'ico', 'dic', 'icDph'],
      properties: {
        name: { type: 'string', maxLength: 160 },
        ico: { type: 'string', maxLength: 12 },
        dic: { type: 'string', maxLength: 14 },
        icDph: { type: 'string', maxLength: 16 },
      },
    },
  ],
} as const;
const profileBody = {
  type: 'object',
  required: ['name', 'email', 'phone', 'company', 'newsletter'],
  properties: {
    name: { type: 'string', maxLength: 120 },
    email,
    phone: { type: 'string', maxLength: 32 },
    company: companySchema,
    newsletter: { type: 'boolean' },
    currentPassword: { type: 'string', maxLength: 256 },
  },
} as const;
const passwordBody = {
  type: 'object',
  required: ['currentPassword', 'newPassword'],
  properties: { currentPassword: password, newPassword: password },
} as const;
const deleteBody = { type: 'object', required: ['password'], properties: { password } } as const;

const accountKey = (request: FastifyRequest) => {
  const body = request.body as { email?: unknown } | undefined;
  return `account:${typeof body?.email === 'string' ? body.email.trim().toLowerCase() : ''}`;
};

/** Sign-up, sign-in, sign-out, password reset, the signed-in user and their profile. */
export const accountRoutes: FastifyPluginAsync<AccountOptions> = async (app, deps) => {
  const users = new UserRepository(deps.db);
  const service = new AccountService(deps.db, deps.tokens);
  const limits = deps.rateLimit ?? DEFAULT_AUTH_RATE_LIMIT;

  await app.register(rateLimit, { global: false });
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
  const tooMany = () => new ApiError(429, 'rate_limited', ACCOUNT_MESSAGES.tooMany);
  /** Counts the request against the address limit; `account: 'count'` also against the e-mail's. */
  const limit = async (request: FastifyRequest, account: 'count' | 'check') => {
    const byAddress = await perAddress(request);
    if (!byAddress.isAllowed && byAddress.isExceeded) throw tooMany();
    const byAccount = await perAccount(request, { increment: account === 'count' });
    if (!byAccount.isAllowed && (account === 'count' ? byAccount.isExceeded : byAccount.remaining <= 0)) throw tooMany();
  };

  app.post<{ Body: Call<'POST /api/account/login'>['body']; Reply: Call<'POST /api/account/login'>['answer'] }>(
    '/account/login',
    { schema: { body: loginBody } },
    async (request) => {
      await limit(request, 'check');
      const { email: address, password: given } = request.body;
      const user = await users.byEmail(address);
      // Verify against a dummy hash when the e-mail is unknown, so both answers take as long.
      const ok = await verifyPassword(given, user?.password_hash ?? DUMMY_HASH);
      if (!user || !ok) {
        await perAccount(request); // a failed sign-in counts against the account
        throw unauthorized(WRONG_CREDENTIALS);
      }
      const token = await deps.tokens.issue(user.user_id);
      return { data: { token, user: { id: user.user_id, email: user.email, name: user.name } } };
    },
  );

  /** Stateless tokens end by expiry; logout also revokes the token it is given (authHash and/or Bearer). */
  app.post<{ Body: Call<'POST /api/account/logout'>['body']; Reply: Call<'POST /api/account/logout'>['answer'] }>(
    '/account/logout',
    { schema: { body: logoutBody } },
    async (request) => {
      const candidates = new Set([request.body.authHash, bearerToken(request)].filter((t): t is string => Boolean(t)));
      for (const token of candidates) {
        const claims = await deps.tokens.verify(token);
        if (claims) await users.revokeToken(claims.jti, claims.expiresAt);
      }
      return { data: { ok: true } };
    },
  );

  app.get<{ Reply: Call<'GET /api/account/me'>['answer'] }>('/account/me', async (request) => {
    const user = await requireUser(request, deps);
    return { data: user };
  });

  /** The same 202 answer whether the e-mail was free or not; the mailbox's owner learns which by e-mail. */
  app.post<{ Body: Acc<'POST /api/account/register'>['body']; Reply: Acc<'POST /api/account/register'>['answer'] }>(
    '/account/register',
    { schema: { body: registerBody } },
    async (request, reply) => {
      await limit(request, 'count');
      await service.register(request.body, deps.publicUrl);
      return reply.status(202).send({ data: { ok: true, message: ACCOUNT_MESSAGES.registered } });
    },
  );

  app.post<{ Body: Acc<'POST /api/account/password-reset'>['body']; Reply: Acc<'POST /api/account/password-reset'>['answer'] }>(
    '/account/password-reset',
    { schema: { body: resetBody } },
    async (request, reply) => {
      await limit(request, 'count');
      await service.requestReset(request.body.email, deps.publicUrl);
      return reply.status(202).send({ data: { ok: true, message: ACCOUNT_MESSAGES.resetSent } });
    },
  );

  app.post<{ Body: Acc<'POST /api/account/password-reset/confirm'>['body']; Reply: Acc<'POST /api/account/password-reset/confirm'>['answer'] }>(
    '/account/password-reset/confirm',
    { schema: { body: resetConfirmBody } },
    async (request) => {
      const byAddress = await perAddress(request);
      if (!byAddress.isAllowed && byAddress.isExceeded) throw tooMany();
      const problem = checkPassword(request.body.password);
      if (problem) throw new ApiError(422, 'validation_failed', problem);
      await service.confirmReset(request.body.token, request.body.password);
      return { data: { ok: true } };
    },
  );

  app.get<{ Reply: Acc<'GET /api/account/profile'>['answer'] }>('/account/profile', async (request) => {
    const user = await requireUser(request, deps);
    return { data: await service.profile(user.id) };
  });

  app.put<{ Body: Acc<'PUT /api/account/profile'>['body']; Reply: Acc<'PUT /api/account/profile'>['answer'] }>(
    '/account/profile',
    { schema: { body: profileBody } },
    async (request) => {
      const user = await requireUser(request, deps);
      return { data: await service.updateProfile(user.id, request.body, deps.publicUrl) };
    },
  );

  /** The link e-mailed to a new address: the e-mail changes when the signed-in owner opens it. */
  app.post<{ Body: Acc<'POST /api/account/email/confirm'>['body']; Reply: Acc<'POST /api/account/email/confirm'>['answer'] }>(
    '/account/email/confirm',
    { schema: { body: { type: 'object', required: ['token'], properties: { token: { type: 'string', minLength: 1, maxLength: 200 } } } } },
    async (request) => {
      const user = await requireUser(request, deps);
      return { data: await service.confirmEmailChange(user.id, request.body.token) };
    },
  );

  app.post<{ Body: Acc<'POST /api/account/password'>['body']; Reply: Acc<'POST /api/account/password'>['answer'] }>(
    '/account/password',
    { schema: { body: passwordBody } },
    async (request) => {
      const user = await requireUser(request, deps);
      const token = await service.changePassword(user.id, request.body.currentPassword, request.body.newPassword);
      return { data: { token } };
    },
  );

  app.post<{ Body: Acc<'POST /api/account/delete'>['body']; Reply: Acc<'POST /api/account/delete'>['answer'] }>(
    '/account/delete',
    { schema: { body: deleteBody } },
    async (request) => {
      const user = await requireUser(request, deps);
      await service.deleteAccount(user.id, request.body.password);
      return { data: { ok: true } };
    },
  );
};
