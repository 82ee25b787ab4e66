/**
 * `GET /api/ops/render-failures`: the server renders that failed in the sandbox (a part threw, ran
 * past its time or memory, its renderer hung or died), newest first, from every server, each with
 * its part, version, reason, page and request id (domains/ops/telemetry/render-failures.repository.ts
 * keeps them). For a signed-in operator alone (operatorAuth's `operator` access).
 */
import type { FastifyPluginAsync } from 'fastify';
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

export const renderFailureRoutes: FastifyPluginAsync<{ read: RenderFailuresReader }> = async (plugin, { read }) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  app.route({
    ...callRoute(opsCalls, 'GET /api/ops/render-failures'),
    config: { access: 'operator' },
    handler: async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return { data: { failures: await read() } };
    },
  });
};
