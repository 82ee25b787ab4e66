import type { FastifyPluginAsync } from 'fastify';
import { SIGNATURE_HEADER } from '../../gateway/protocol.ts';
import type { OrderDeps } from '../orders/index.ts';
import { handleNotification } from './notifications.ts';

const MESSAGES: Record<string, string> = {
  bad_signature: 'Neplatný podpis notifikácie.',
  unknown_payment: 'Platba neexistuje.',
  bad_request: 'Neplatná notifikácia.',
};

/** POST /api/payments/notify: the card gateway's signed notification (raw body for the HMAC). */
export const paymentRoutes: FastifyPluginAsync<OrderDeps> = async (app, deps) => {
  // Encapsulated: only this plugin reads JSON as text, to check the signature over the exact bytes.
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => done(null, body));

  app.post('/payments/notify', async (request, reply) => {
    const raw = typeof request.body === 'string' ? request.body : '';
    const outcome = await handleNotification(deps.db, deps.checkout.gateway.secret, raw, request.headers[SIGNATURE_HEADER]);
    if (outcome.status === 200) return { data: { result: outcome.result } };
    const code = outcome.status === 401 ? 'unauthorized' : outcome.status === 404 ? 'not_found' : 'bad_request';
    return reply.status(outcome.status).send({ error: { code, message: MESSAGES[outcome.result] ?? 'Neplatná notifikácia.' } });
  });
};
