/**
 * Operating the API: liveness (/api/health: the process answers), readiness (/api/ready: the
 * database and the other dependencies answer) and metrics (/api/metrics, Prometheus text format,
 * for a machine credential of the metrics scope as `Authorization: Bearer`: operatorAuth's
 * `metrics` access; `npm run credentials -- metrics-create <name>`).
 */
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { opsCalls } from '@shop/shared-kernel/schemas';
import { callRoute } from '../../../infra/http/contract-route.ts';
import { databaseAnswers } from './health.repository.ts';
import { ApiError } from '../../../infra/http/errors.ts';
import type { ApiDeps, ReadinessCheck } from '../../../infra/deps.ts';

const CHECK_TIMEOUT_MS = 2000;

function withTimeout<T>(promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer in ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export const healthRoutes: FastifyPluginAsync<ApiDeps> = async (plugin, deps) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const checks: ReadinessCheck[] = [{ name: 'database', label: 'Databáza', check: () => databaseAnswers(deps.db) }, ...deps.readiness];

  app.route({
    ...callRoute(opsCalls, 'GET /api/health'),
    handler: async () => ({ data: { status: 'ok' as const, uptimeSeconds: Math.round(process.uptime()) } }),
  });

  app.route({
    ...callRoute(opsCalls, 'GET /api/ready'),
    handler: async (request) => {
      const results = await Promise.all(
        checks.map(async (c) => {
          try {
            await withTimeout(c.check());
            return { ...c, ok: true };
          } catch (error) {
            request.log.error({ err: error, check: c.name }, 'readiness check failed');
            return { ...c, ok: false };
          }
        }),
      );
      const failed = results.filter((r) => !r.ok);
      if (failed.length > 0) {
        throw new ApiError(
          503,
          'internal',
          `Obchod teraz nie je pripravený obslúžiť požiadavky: nedostupné – ${failed.map((f) => f.label).join(', ')}.`,
        );
      }
      return { data: { status: 'ready' as const, checks: Object.fromEntries(results.map((r) => [r.name, 'ok' as const])) } };
    },
  });

  app.get('/metrics', { config: { access: 'metrics' } }, async (_request, reply) => {
    const body = await deps.metrics.registry.metrics();
    return reply.header('cache-control', 'no-store').type(deps.metrics.registry.contentType).send(body);
  });
};
