import type { FastifyPluginAsync } from 'fastify';
import type { ApiCalls } from '@shop/shared-kernel/contract';
import { bearerToken } from '../../lib/auth.ts';
import { unauthorized } from '../../lib/errors.ts';
import { DUMMY_HASH, verifyPassword } from '../../lib/password.ts';
import type { ApiDeps } from '../deps.ts';
import { requireUser } from './require-user.ts';
import { UserRepository } from './user.repository.ts';

type Call<K extends keyof ApiCalls> = ApiCalls[K];

/** One message for an unknown e-mail and a wrong password, so the answer reveals neither. */
export const WRONG_CREDENTIALS = 'Nesprávny e-mail alebo heslo';

const loginBody = {
  type: 'object',
  required: ['email', 'password'],
  properties: {
    email: { type: 'string', minLength: 3, maxLength: 254 },
    password: { type: 'string', minLength: 1, maxLength: 256 },
  },
} as const;

const logoutBody = {
  type: 'object',
  required: ['authHash'],
  properties: { authHash: { type: 'string', maxLength: 4096 } },
} as const;

/** Sign-in, sign-out, the signed-in user. */
export const accountRoutes: FastifyPluginAsync<ApiDeps> = async (app, deps) => {
  const users = new UserRepository(deps.db);

  app.post<{ Body: Call<'POST /api/account/login'>['body']; Reply: Call<'POST /api/account/login'>['answer'] }>(
    '/account/login',
    { schema: { body: loginBody } },
    async (request) => {
      const { email, password } = request.body;
      const user = await users.byEmail(email);
      // Verify against a dummy hash when the e-mail is unknown, so both answers take as long.
      const ok = await verifyPassword(password, user?.password_hash ?? DUMMY_HASH);
      if (!user || !ok) throw unauthorized(WRONG_CREDENTIALS);
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
};
