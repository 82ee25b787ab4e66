/**
 * The operator's sign-in on the operator origin: name, password and the second factor's code into
 * the session cookie (infra/auth/operator-auth.ts), who is signed in, sign-out, the re-authentication
 * release actions need, and setting up the second factor (a QR code for the authenticator app,
 * confirmed by a first code; ten recovery codes shown once). Each sign-in, allowed or refused, and
 * each change of the second factor is in the audit log.
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import QRCode from 'qrcode';
import { opsCalls } from '@shop/shared-kernel/schemas';
import { callRoute } from '../../infra/http/contract-route.ts';
import { ApiError, forbidden, unauthorized } from '../../infra/http/errors.ts';
import { bearerToken } from '../../infra/auth/auth.ts';
import { type OperatorActor, operatorCookieSecret, setOperatorCookie } from '../../infra/auth/operator-auth.ts';
import type { ReleaseIdentities } from '../releases/identities.repository.ts';
import { OPERATOR_SESSION_MS, type OperatorAccounts, type OperatorSessionState } from './operator-accounts.repository.ts';

export type OperatorSessionOptions = {
  operators: OperatorAccounts;
  /** A team's release credential typed as the password is refused and audited. */
  identities: ReleaseIdentities;
  /** The operator origin: where the cookie is set. */
  operatorOrigin: string;
};

const route = <K extends keyof typeof opsCalls>(name: K) => callRoute(opsCalls, name);
const LIMITED = 'Príliš veľa neúspešných pokusov z tejto adresy. Skúste to znova o 15 minút.';

/** The session as the console is told of it. */
const shown = (session: Pick<OperatorSessionState, 'name' | 'expiresAt' | 'idleUntil' | 'secondFactor'>) => ({
  name: session.name,
  expiresAt: session.expiresAt,
  idleUntil: session.idleUntil,
  secondFactor: session.secondFactor,
});

/** The signed-in operator of a route that asked for one (operatorAuth refused everyone else). */
function operatorOf(request: FastifyRequest): OperatorActor {
  const actor = request.actor;
  if (actor?.kind !== 'operator') throw unauthorized('Prihláste sa ako operátor.');
  return actor;
}

export const operatorSessionRoutes: FastifyPluginAsync<OperatorSessionOptions> = async (plugin, options) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const { operators, identities, operatorOrigin } = options;

  app.route({
    ...route('POST /api/ops/session'),
    config: { access: 'none' },
    handler: async (request, reply) => {
      const { name, password, code } = request.body;
      // A team's release credential is never an operator, as the Bearer token or typed as the password.
      const bearer = bearerToken(request);
      const team = (bearer ? await identities.team(bearer) : null) ?? (await identities.team(password));
      if (team) {
        await identities.audit({
          actor: team.name,
          action: 'sign-in',
          part: null,
          allowed: false,
          detail: 'prístup tímu nie je účet operátora',
        });
        throw forbidden('Prístup tímu nie je účet operátora: prihláste sa menom a heslom operátora.');
      }
      const result = await operators.signIn({ name, password, code, address: request.ip });
      if (!result.ok) {
        await identities.audit({
          actor: name,
          action: 'sign-in',
          part: null,
          allowed: false,
          detail: result.reason === 'limited' ? 'príliš veľa pokusov z adresy' : 'nesprávne meno, heslo alebo kód',
        });
        if (result.reason === 'limited') throw new ApiError(429, 'rate_limited', LIMITED);
        throw unauthorized('Nesprávne meno, heslo alebo kód z aplikácie.');
      }
      await identities.audit({
        actor: result.session.name,
        action: 'sign-in',
        part: null,
        allowed: true,
        detail: result.session.secondFactor ? null : 'bez druhého faktora: len jeho nastavenie',
      });
      setOperatorCookie(reply, operatorOrigin, result.secret, OPERATOR_SESSION_MS / 1000);
      reply.header('cache-control', 'no-store');
      return { data: shown(result.session) };
    },
  });

  app.route({
    ...route('GET /api/ops/session'),
    config: { access: 'none' },
    handler: async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const actor = request.actor;
      // Nobody signed in (or the session ended) is an answer, not an error: the console shows its sign-in form.
      return { data: actor?.kind === 'operator' ? shown(actor) : null };
    },
  });

  app.route({
    ...route('DELETE /api/ops/session'),
    config: { access: 'none' },
    handler: async (request, reply) => {
      const secret = operatorCookieSecret(request);
      if (secret) await operators.signOut(secret);
      if (request.actor?.kind === 'operator') await request.audit({ action: 'sign-out' });
      setOperatorCookie(reply, operatorOrigin, '', 0);
      return reply.code(204).send(null);
    },
  });

  app.route({
    ...route('POST /api/ops/session/reauth'),
    config: { access: 'operator' },
    handler: async (request, reply) => {
      const session = operatorOf(request);
      const result = await operators.reauthenticate(session, request.body.code, request.ip);
      if (!result.ok) {
        await request.audit({
          action: 'reauth',
          allowed: false,
          detail: result.reason === 'limited' ? 'príliš veľa pokusov' : 'nesprávny kód',
        });
        if (result.reason === 'limited') throw new ApiError(429, 'rate_limited', LIMITED);
        throw new ApiError(403, 'forbidden', 'Nesprávny kód z aplikácie.', 'reauth_required');
      }
      reply.header('cache-control', 'no-store');
      return { data: shown(result.session) };
    },
  });

  app.route({
    ...route('POST /api/ops/second-factor'),
    config: { access: 'setup' },
    handler: async (request, reply) => {
      const session = operatorOf(request);
      const started = await operators.startSecondFactor(session);
      if (!started)
        throw new ApiError(
          409,
          'conflict',
          'Druhý faktor je už nastavený. Na novom zariadení ho obnoví vlastník obchodu (npm run credentials -- operator-totp-reset).',
        );
      await request.audit({ action: 'second-factor-start' });
      reply.header('cache-control', 'no-store');
      return { data: { secret: started.secret, uri: started.uri, qr: await QRCode.toDataURL(started.uri, { margin: 1, width: 240 }) } };
    },
  });

  app.route({
    ...route('POST /api/ops/second-factor/confirm'),
    config: { access: 'setup' },
    handler: async (request, reply) => {
      const session = operatorOf(request);
      const result = await operators.confirmSecondFactor(session, request.body.code, request.ip);
      if (!result.ok) {
        if (result.reason === 'limited') throw new ApiError(429, 'rate_limited', LIMITED);
        if (result.reason === 'none') throw new ApiError(409, 'conflict', 'Nastavenie druhého faktora nie je začaté. Začnite ho znova.');
        throw new ApiError(400, 'validation_failed', 'Kód nesedí. Skontrolujte čas v telefóne a zadajte aktuálny kód z aplikácie.');
      }
      await request.audit({ action: 'second-factor-confirm' });
      reply.header('cache-control', 'no-store');
      return { data: { recoveryCodes: result.recoveryCodes, session: shown(result.session) } };
    },
  });
};
