/**
 * `GET /api/ops/client-errors?hours=24[&area=…&version=…]`: the shoppers' client errors grouped by
 * area, version, route and top frame of the stack mapped with that version's source maps, most
 * reports first, each with its last message and mapped stack (domains/ops/telemetry keeps them).
 * For a signed-in operator alone (operatorAuth's `operator` access), on the operator origin.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { ClientErrorGroup } from '@shop/shared-kernel/contract';
import { opsCalls } from '@shop/shared-kernel/schemas';
import { callRoute } from '../../../infra/http/contract-route.ts';
import type { Db } from '../../../db/database.ts';
import { clientErrorGroups } from '../telemetry/client-errors.repository.ts';

export type ClientErrorsReader = (filter: { since: Date; area?: string; version?: string }) => Promise<ClientErrorGroup[]>;
export const clientErrorsReader =
  (db: Db): ClientErrorsReader =>
  (filter) =>
    clientErrorGroups(db, filter);

export const clientErrorRoutes: FastifyPluginAsync<{ read: ClientErrorsReader }> = async (plugin, { read }) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  app.route({
    ...callRoute(opsCalls, 'GET /api/ops/client-errors'),
    config: { access: 'operator' },
    handler: async (request, reply) => {
      const { hours, area, version } = request.query;
      const since = new Date(Date.now() - hours * 60 * 60_000);
      reply.header('cache-control', 'no-store');
      return { data: { since: since.toISOString(), groups: await read({ since, area, version }) } };
    },
  });
};
