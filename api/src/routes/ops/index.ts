/**
 * Operator calls behind the operator token: the releases in force, their
 * history, and rollback, running the same release code as the command.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { ApiCalls } from '@shop/shared-kernel/contract';
import { history, rollback, status } from '../../release/releases.ts';
import { ReleaseRefused } from '../../release/refusal.ts';
import { isPart } from '../../release/registry.ts';
import { localDirectoryStorage } from '../../release/storage.ts';
import { checkOperatorToken } from '../operator/operator-auth.ts';

type Answer<K extends keyof ApiCalls> = ApiCalls[K]['answer'];
export type OpsOptions = { originDir: string; operatorToken: string };

export const opsRoutes: FastifyPluginAsync<OpsOptions> = async (app, { originDir, operatorToken }) => {
  const storage = localDirectoryStorage(originDir);

  app.addHook('onRequest', async (request, reply) => {
    const given = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    if (!checkOperatorToken(request, given, operatorToken)) {
      return reply.code(401).send({ error: { code: 'unauthorized', message: 'Chýba platný operátorský token.' } });
    }
  });

  app.get<{ Reply: Answer<'GET /api/ops/releases'> }>('/releases', async () => {
    const [current, moves] = await Promise.all([status(storage), history(storage)]);
    return { data: { ...current, history: moves } };
  });

  app.post<{ Params: { part: string }; Body: { version?: string } }>(
    '/releases/:part/rollback',
    {
      schema: {
        params: { type: 'object', properties: { part: { type: 'string' } }, required: ['part'] },
        body: {
          type: 'object',
          properties: { version: { type: 'string', pattern: '^[0-9A-Za-z.+-]{1,64}$' } },
          additionalProperties: false,
        },
      },
    },
    async (request, reply) => {
      const { part } = request.params;
      if (!isPart(part)) return reply.code(404).send({ error: { code: 'not_found', message: `Neznáma časť obchodu: ${part}` } });
      try {
        const result = await rollback({ storage, part, to: request.body?.version ?? null, who: 'ops' });
        const answer: Answer<'POST /api/ops/releases/:part/rollback'> = { data: result };
        return answer;
      } catch (error) {
        if (error instanceof ReleaseRefused) return reply.code(409).send({ error: { code: 'conflict', message: error.message } });
        throw error;
      }
    },
  );
};
