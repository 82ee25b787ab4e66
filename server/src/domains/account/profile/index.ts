import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { accountCalls } from '@shop/shared-kernel/schemas';
import { ACCOUNT_MESSAGES } from '@shop/shared-kernel/rules';
import { decodeJwt } from 'jose';
import type { FastifyReply } from 'fastify';
import { assertSameOrigin, bearerToken, clearSessionCookie, sessionCookieToken, setSessionCookie } from '../../../infra/auth/auth.ts';
import { callRoute } from '../../../infra/http/contract-route.ts';
import type { ApiDeps } from '../../../infra/deps.ts';
import { unauthorized } from '../../../infra/http/errors.ts';
import { requireUser } from '../../../infra/auth/require-user.ts';
import { AccountService } from './account.service.ts';
import { registerAuthRateLimit } from './auth-rate-limit.ts';

/** One message for an unknown e-mail and a wrong password, so the answer reveals neither. */
export const WRONG_CREDENTIALS = 'Nesprávny e-mail alebo heslo';

/** Sign-up, sign-in, sign-out, password reset, the signed-in user and their profile. */
export const accountRoutes: FastifyPluginAsync<ApiDeps> = async (plugin, deps) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const service = new AccountService(deps.db, deps.tokens);
  const limiter = await registerAuthRateLimit(plugin, deps.limits.auth, deps.shared);
  const { publicUrl } = deps;

  /**
   * A token just issued goes to the browser as the HttpOnly session cookie; the body keeps it for
   * API clients (Bearer). The expiry lets the shop's page show "signed in" until then without a call.
   */
  const session = (reply: FastifyReply, token: string) => {
    setSessionCookie(reply, token, publicUrl);
    return { token, expiresAt: new Date((decodeJwt(token).exp ?? 0) * 1000).toISOString() };
  };

  app.route({
    ...callRoute(accountCalls, 'POST /api/account/login'),
    handler: async (request, reply) => {
      await limiter.limit(request, 'check');
      const signedIn = await service.signIn(request.body.email, request.body.password);
      if (!signedIn) {
        await limiter.countFailure(request);
        throw unauthorized(WRONG_CREDENTIALS);
      }
      return { data: { ...session(reply, signedIn.token), user: signedIn.user } };
    },
  });

  /**
   * Stateless tokens end by expiry; logout also revokes the tokens it is given (authHash, Bearer,
   * the session cookie) and clears the cookie. The CSRF rule holds here too: another site may not
   * end the shopper's session.
   */
  app.route({
    ...callRoute(accountCalls, 'POST /api/account/logout'),
    handler: async (request, reply) => {
      const cookie = sessionCookieToken(request, publicUrl);
      if (cookie) assertSameOrigin(request, publicUrl);
      await service.signOut([request.body.authHash, bearerToken(request), cookie].filter((t): t is string => Boolean(t)));
      if (cookie) clearSessionCookie(reply, publicUrl);
      return { data: { ok: true as const } };
    },
  });

  app.route({
    ...callRoute(accountCalls, 'GET /api/account/me'),
    handler: async (request) => ({ data: await requireUser(request, deps) }),
  });

  /** The same 202 answer whether the e-mail was free or not; the mailbox's owner learns which by e-mail. */
  app.route({
    ...callRoute(accountCalls, 'POST /api/account/register'),
    handler: async (request, reply) => {
      await limiter.limit(request, 'count');
      await service.register(request.body, publicUrl);
      return reply.status(202).send({ data: { ok: true, message: ACCOUNT_MESSAGES.registered } });
    },
  });

  app.route({
    ...callRoute(accountCalls, 'POST /api/account/password-reset'),
    handler: async (request, reply) => {
      await limiter.limit(request, 'count');
      await service.requestReset(request.body.email, publicUrl);
      return reply.status(202).send({ data: { ok: true, message: ACCOUNT_MESSAGES.resetSent } });
    },
  });

  app.route({
    ...callRoute(accountCalls, 'POST /api/account/password-reset/confirm'),
    handler: async (request) => {
      await limiter.limitAddress(request);
      await service.confirmReset(request.body.token, request.body.password);
      return { data: { ok: true as const } };
    },
  });

  app.route({
    ...callRoute(accountCalls, 'GET /api/account/profile'),
    handler: async (request) => {
      const user = await requireUser(request, deps);
      return { data: await service.profile(user.id) };
    },
  });

  app.route({
    ...callRoute(accountCalls, 'PUT /api/account/profile'),
    handler: async (request) => {
      const user = await requireUser(request, deps);
      return { data: await service.updateProfile(user.id, request.body, publicUrl) };
    },
  });

  /** The link e-mailed to a new address: the e-mail changes when the signed-in owner opens it. */
  app.route({
    ...callRoute(accountCalls, 'POST /api/account/email/confirm'),
    handler: async (request) => {
      const user = await requireUser(request, deps);
      return { data: await service.confirmEmailChange(user.id, request.body.token) };
    },
  });

  app.route({
    ...callRoute(accountCalls, 'POST /api/account/password'),
    handler: async (request, reply) => {
      const user = await requireUser(request, deps);
      return { data: session(reply, await service.changePassword(user.id, request.body.currentPassword, request.body.newPassword)) };
    },
  });

  app.route({
    ...callRoute(accountCalls, 'POST /api/account/delete'),
    handler: async (request, reply) => {
      const user = await requireUser(request, deps);
      await service.deleteAccount(user.id, request.body.password);
      if (sessionCookieToken(request, publicUrl)) clearSessionCookie(reply, publicUrl);
      return { data: { ok: true as const } };
    },
  });
};
