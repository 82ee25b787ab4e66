/**
 * `GET /api/ops/render-failures`: the server renders that failed in the sandbox (a part threw, ran
 * past its time or memory, its renderer hung or died), newest first, from every server, each with
 * its part, version, reason, page and request id (domains/ops/telemetry/render-failures.repository.ts
 * keeps them). Registered inside the ops routes; for the operator alone, like /ops.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { RenderFailureEntry } from '@shop/shared-kernel/contract';
import { opsCalls } from '@shop/shared-kernel/schemas';
import { callRoute } from '../../../infra/http/contract-route.ts';
import type { Db } from '../../../db/database.ts';
import { recentRenderFailures } from '../telemetry/render-failures.repository.ts';

export type RenderFailuresReader = () => Promise<RenderFailureEntry[]>;
export const renderFailuresReader =
  (db: Db): RenderFailuresReader =>
  () =>
    recentRenderFailures(db);

export const renderFailureRoutes: FastifyPluginAsync<{
  read: RenderFailuresReader;
  /** The ops routes' check of who may read (answers 403 itself when not). */
  authorize: (request: FastifyRequest, reply: FastifyReply, action: string, part: string | null) => Promise<boolean>;
}> = async (plugin, { read, authorize }) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  app.route({
    ...callRoute(opsCalls, 'GET /api/ops/render-failures'),
    preHandler: async (request, reply) => {
      await authorize(request, reply, 'read', null);
    },
    handler: async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return { data: { failures: await read() } };
    },
  });
};
