/**
 * `GET /api/ops/client-errors?hours=24[&area=…&version=…]`: the shoppers' client errors grouped by
 * area, version, route and top frame of the stack mapped with that version's source maps, most
 * reports first, each with its last message and mapped stack (domains/ops/telemetry keeps them).
 * Registered inside the ops routes; for the operator alone, like /ops.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
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

export const clientErrorRoutes: FastifyPluginAsync<{
  read: ClientErrorsReader;
  /** The ops routes' check of who may read (answers 403 itself when not). */
  authorize: (request: FastifyRequest, reply: FastifyReply, action: string, part: string | null) => Promise<boolean>;
}> = async (plugin, { read, authorize }) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  app.route({
    ...callRoute(opsCalls, 'GET /api/ops/client-errors'),
    preHandler: async (request, reply) => {
      await authorize(request, reply, 'read', null);
    },
    handler: async (request, reply) => {
      const { hours, area, version } = request.query;
      const since = new Date(Date.now() - hours * 60 * 60_000);
      reply.header('cache-control', 'no-store');
      return { data: { since: since.toISOString(), groups: await read({ since, area, version }) } };
    },
  });
};
