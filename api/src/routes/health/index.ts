/**
 * Operating the API: liveness (/api/health: the process answers), readiness (/api/ready: the
 * database and the other dependencies answer) and metrics (/api/metrics, Prometheus text format,
 * for the operator's token: `X-Operator-Token` or `Authorization: Bearer`).
 */
import { sql } from 'kysely';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { ApiError } from '../../lib/errors.ts';
import type { Metrics } from '../../lib/metrics.ts';
import type { ApiDeps } from '../deps.ts';
import { requireOperator } from '../operator/operator-auth.ts';

/** A dependency the shop needs to serve: answers when reachable, throws when not. */
export type ReadinessCheck = { name: string; label: string; check: () => Promise<unknown> };

export type HealthDeps = ApiDeps & { metrics: Metrics; operatorToken: string; readiness: ReadinessCheck[] };

const CHECK_TIMEOUT_MS = 2000;

function withTimeout<T>(promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer in ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Prometheus sends its credentials as a bearer token; the operator's tools use X-Operator-Token. */
function bearerAsOperatorToken(request: FastifyRequest): void {
  const auth = request.headers.authorization;
  if (!request.headers['x-operator-token'] && typeof auth === 'string' && auth.startsWith('Bearer ')) {
    request.headers['x-operator-token'] = auth.slice(7);
  }
}

export const healthRoutes: FastifyPluginAsync<HealthDeps> = async (app, deps) => {
  const checks: ReadinessCheck[] = [
    { name: 'database', label: 'Databáza', check: () => sql`select 1`.execute(deps.db) },
    ...deps.readiness,
  ];

  app.get('/health', async () => ({ data: { status: 'ok', uptimeSeconds: Math.round(process.uptime()) } }));

  app.get('/ready', async (request) => {
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
      throw new ApiError(503, 'internal', `Obchod teraz nie je pripravený obslúžiť požiadavky: nedostupné – ${failed.map((f) => f.label).join(', ')}.`);
    }
    return { data: { status: 'ready', checks: Object.fromEntries(results.map((r) => [r.name, 'ok'])) } };
  });

  app.get('/metrics', async (request, reply) => {
    bearerAsOperatorToken(request);
    requireOperator(request, { operatorToken: deps.operatorToken });
    const body = await deps.metrics.registry.metrics();
    return reply.header('cache-control', 'no-store').type(deps.metrics.registry.contentType).send(body);
  });
};
