/**
 * `GET /api/ops/csp-violations`: the pages' Content-Security-Policy violations of the last 7 days,
 * summed per page type, part, directive and blocked origin (domains/ops/telemetry/csp-report.ts counts
 * them). Registered inside the ops routes, behind their token; for the operator alone, like /ops.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
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

export const cspViolationRoutes: FastifyPluginAsync<{
  read: CspViolationsReader;
  /** The ops routes' check of who may read (answers 403 itself when not). */
  authorize: (request: FastifyRequest, reply: FastifyReply, action: string, part: string | null) => Promise<boolean>;
}> = async (plugin, { read, authorize }) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  app.route({
    ...callRoute(opsCalls, 'GET /api/ops/csp-violations'),
    preHandler: async (request, reply) => {
      await authorize(request, reply, 'read', null);
    },
    handler: async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return { data: await read(new Date()) };
    },
  });
};
