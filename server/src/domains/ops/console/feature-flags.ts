/**
 * Feature switches from the operator console and from CI: the table of every area's switches, and
 * setting one. An operator (with a fresh code: operatorAuth's `release` access) may switch every
 * area's, an area team's credential only its own area's (refused and audited otherwise), as for
 * every other release action; the change and its audit entry are one transaction.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { opsCalls } from '@shop/shared-kernel/schemas';
import { MAX_FLAGS_PER_AREA } from '@shop/shared-kernel/rules';
import { isArea } from '@shop/release';
import type { Db } from '../../../db/database.ts';
import { callRoute } from '../../../infra/http/contract-route.ts';
import { ApiError, notFound } from '../../../infra/http/errors.ts';
import { listFlags, setFlag, TooManyFlags } from '../../releases/feature-flags.repository.ts';
import { authorizePart, releaseActor } from './release-actions.ts';

const route = <K extends keyof typeof opsCalls>(name: K) => callRoute(opsCalls, name);

export const featureFlagRoutes: FastifyPluginAsync<{ db: Db }> = async (plugin, options) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();

  // Every area's switches: what the console shows (a team's credential sees its own area's).
  app.route({
    ...route('GET /api/ops/flags'),
    config: { access: 'release', action: 'flags' },
    handler: async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const actor = releaseActor(request);
      const flags = await listFlags(options.db);
      return {
        data: { flags: actor.kind === 'team' ? flags.filter((flag) => flag.area === actor.area) : flags, maxPerArea: MAX_FLAGS_PER_AREA },
      };
    },
  });

  app.route({
    ...route('POST /api/ops/flags/:part/:name'),
    config: { access: 'release', action: 'flag' },
    preHandler: async (request) => authorizePart(request, 'flag', request.params.part),
    handler: async (request) => {
      const { part, name } = request.params;
      if (!isArea(part)) throw notFound(`Neznáma oblasť obchodu: ${part.slice(0, 20)}`);
      const by = releaseActor(request).name;
      const changed = await setFlag(options.db, { area: part, name, share: request.body.share, by }).catch(async (error: unknown) => {
        if (!(error instanceof TooManyFlags)) throw error;
        await request.audit({ action: 'flag', part, allowed: false, detail: `${name}: oblasť má už ${MAX_FLAGS_PER_AREA} prepínačov` });
        throw new ApiError(
          409,
          'conflict',
          `Oblasť ${part} má už ${MAX_FLAGS_PER_AREA} prepínačov funkcií; nový nemožno pridať. Použite niektorý z existujúcich.`,
        );
      });
      request.log.warn({ release: { action: 'flag', ...changed, by } }, 'feature switch set');
      return { data: changed };
    },
  });
};
