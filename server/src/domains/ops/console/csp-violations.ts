/**
 * `GET /api/ops/csp-violations`: the pages' Content-Security-Policy violations of the last 7 days,
 * summed per page type, part, directive and blocked origin (domains/ops/telemetry/csp-report.ts counts
 * them). For a signed-in operator alone (operatorAuth's `operator` access).
 */
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { CspViolationReport } from '@shop/shared-kernel/contract';
import { opsCalls } from '@shop/shared-kernel/schemas';
import { callRoute } from '../../../infra/http/contract-route.ts';
import type { Db } from '../../../db/database.ts';
import { violationsSince } from '../telemetry/csp-violations.repository.ts';

/** What the server hands the ops routes: the reader of the counts (a database's, or a test's). */
export type CspViolationsReader = (now: Date) => Promise<CspViolationReport>;
export const cspViolationsReader =
  (db: Db): CspViolationsReader =>
  (now) =>
    violationsSince(db, now);

export const cspViolationRoutes: FastifyPluginAsync<{ read: CspViolationsReader }> = async (plugin, { read }) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  app.route({
    ...callRoute(opsCalls, 'GET /api/ops/csp-violations'),
    config: { access: 'operator' },
    handler: async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return { data: await read(new Date()) };
    },
  });
};
