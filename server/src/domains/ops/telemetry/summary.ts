/**
 * `GET /api/telemetry/summary?minutes=60`, on the operator origin for a signed-in operator
 * (operatorAuth's `operator` access): per area and version, the telemetry sessions that showed it
 * (`views`), those that met an error in it (`errors`) and their ratio over the last minutes, as the
 * browsers reported them (index.ts).
 */
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { TelemetryArea } from '@shop/shared-kernel/contract';
import { opsCalls } from '@shop/shared-kernel/schemas';
import { callRoute } from '../../../infra/http/contract-route.ts';
import type { ApiDeps } from '../../../infra/deps.ts';
import { clientHealth } from './client-health.ts';
import { minuteOf } from './client-metrics.repository.ts';

export const telemetrySummaryRoutes: FastifyPluginAsync<ApiDeps> = async (plugin, deps) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  app.route({
    ...callRoute(opsCalls, 'GET /api/telemetry/summary'),
    config: { access: 'operator' },
    handler: async (request, reply) => {
      const since = new Date(minuteOf(new Date(Date.now() - (request.query.minutes - 1) * 60_000)));
      const rows = await clientHealth(deps.db, since);
      reply.header('cache-control', 'no-store');
      return {
        data: {
          since: since.toISOString(),
          rows: rows.map((row) => ({
            area: row.area as TelemetryArea,
            version: row.version,
            views: row.views,
            errors: row.errors,
            errorRate: Math.round((row.errors / Math.max(row.views, 1)) * 10_000) / 10_000,
          })),
        },
      };
    },
  });
};
