/**
 * A local card payment gateway for development and tests, on its own loopback port; never started
 * by the shop's server: `npm start`, the cluster, the end-to-end and benchmark launchers start it
 * (./start.ts) and give the server its address (GATEWAY_URL), tests start it in-process. It follows
 * the protocol in protocol.ts (the wire shapes of the API's server/src/domains/ordering/payments/gateway-protocol.ts): signed payment creation, a payment page with pay and cancel
 * buttons, a signed notification to the shop, then the shopper back to the shop's return URL;
 * the shop's signed cancel and refund. Payments live in memory.
 * For tests (not part of the protocol): `GET /api/payments/{paymentId}` answers where a payment
 * stands ({ paymentId, status, amount }), and holdNotifications/releaseNotifications keep the
 * notifications of payments finished meanwhile and then deliver them all at the same moment, as
 * a slow network would.
 */
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import type { FastifyReply } from 'fastify';
import type { CreatePaymentRequest, PaymentNotification } from './protocol.ts';
import { SIGNATURE_HEADER, sign, verifySignature } from './protocol.ts';

export type GatewaySimulator = {
  url: string;
  close(): Promise<void>;
  /** Keeps the notifications of payments finished from now on (the shopper is still sent back to the shop). */
  holdNotifications(): void;
  /** Delivers every held notification at once, resolves when the shop has answered them all, and stops holding. */
  releaseNotifications(): Promise<void>;
};

type SimPayment = CreatePaymentRequest & { id: string; status: 'created' | 'paid' | 'cancelled' | 'failed' | 'refunded' };

/** The five characters that matter in text and in quoted attribute values. */
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escape = (text: string) => text.replace(/[&<>"']/g, (char) => ENTITIES[char]!);

const euros = (cents: number) => `${(cents / 100).toFixed(2).replace('.', ',')} €`;

/** A page of the gateway; its empty icon saves the browser a /favicon.ico the simulator does not have. */
function page(title: string, body: string): string {
  return `<!doctype html><html lang="sk"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<link rel="icon" href="data:,"><title>${escape(title)}</title><style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:2rem auto;padding:0 1rem;color:#1d2530}
.card{border:1px solid #ccd;border-radius:.5rem;padding:1rem 1.25rem}button{font:inherit;padding:.7rem 1.2rem;border-radius:.4rem;border:1px solid #888;margin:.3rem .3rem 0 0;cursor:pointer}
.pay{background:#1b6e3a;color:#fff;border-color:#1b6e3a}</style></head><body>${body}</body></html>`;
}

async function notify(secret: string, payment: SimPayment, log: (m: string) => void): Promise<void> {
  const notification: PaymentNotification = {
    notificationId: randomUUID(),
    paymentId: payment.id,
    merchantRef: payment.merchantRef,
    status: payment.status as PaymentNotification['status'],
    amount: payment.amount,
    currency: 'EUR',
    createdAt: new Date().toISOString(),
  };
  const body = JSON.stringify(notification);
  for (let attempt = 1; attempt <= 3; attempt++) {
    try {
      const res = await fetch(payment.notifyUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: sign(secret, body) },
        body,
      });
      if (res.ok) return;
      log(`notification ${payment.id} answered ${res.status}`);
      if (res.status < 500) return;
    } catch (error) {
      log(`notification ${payment.id} failed: ${(error as Error).message}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
  }
}

export async function startGatewaySimulator(opts: {
  secret: string;
  port?: number;
  host?: string;
  log?: (message: string) => void;
}): Promise<GatewaySimulator> {
  const log = opts.log ?? (() => undefined);
  const payments = new Map<string, SimPayment>();
  let held: SimPayment[] | null = null;
  // Its own failures (5xx) are logged as JSON lines; what it does is told through `log`.
  const app = Fastify({ logger: { level: 'warn' } });
  let baseUrl = '';

  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => done(null, body));
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => done(null, body));

  app.post('/api/payments', async (request, reply) => {
    const raw = typeof request.body === 'string' ? request.body : '';
    if (!verifySignature(opts.secret, raw, request.headers[SIGNATURE_HEADER])) {
      return reply.status(401).send({ error: 'bad signature' });
    }
    let input: CreatePaymentRequest;
    try {
      input = JSON.parse(raw) as CreatePaymentRequest;
    } catch {
      return reply.status(400).send({ error: 'bad json' });
    }
    if (!Number.isInteger(input.amount) || input.amount <= 0 || !input.returnUrl || !input.notifyUrl || !input.merchantRef) {
      return reply.status(400).send({ error: 'bad payment' });
    }
    const id = randomUUID().replace(/-/g, '');
    payments.set(id, { ...input, id, status: 'created' });
    return reply.status(201).send({ paymentId: id, redirectUrl: `${baseUrl}/pay/${id}` });
  });

  /** The shop's signed cancel and refund (protocol steps 5 and 6), idempotent. */
  const action =
    (kind: 'cancel' | 'refund') =>
    async (
      request: { params: { id: string }; body: unknown; headers: Record<string, string | string[] | undefined> },
      reply: FastifyReply,
    ) => {
      const raw = typeof request.body === 'string' ? request.body : '';
      if (!verifySignature(opts.secret, raw, request.headers[SIGNATURE_HEADER])) return reply.status(401).send({ error: 'bad signature' });
      const payment = payments.get(request.params.id);
      if (!payment) return reply.status(404).send({ error: 'unknown payment' });
      if (kind === 'cancel') {
        if (payment.status === 'paid' || payment.status === 'refunded')
          return reply.status(409).send({ error: 'already paid', status: payment.status });
        if (payment.status === 'created') payment.status = 'cancelled';
      } else {
        if (payment.status !== 'paid' && payment.status !== 'refunded')
          return reply.status(409).send({ error: 'not paid', status: payment.status });
        if (payment.status === 'paid') {
          payment.status = 'refunded';
          log(`refunded ${payment.id} (${euros(payment.amount)})`);
        }
      }
      return reply.send({ paymentId: payment.id, status: payment.status });
    };
  app.post<{ Params: { id: string } }>('/api/payments/:id/cancel', action('cancel'));
  app.post<{ Params: { id: string } }>('/api/payments/:id/refund', action('refund'));
  /** For tests and the operator's curiosity: where a payment stands at the gateway. */
  app.get<{ Params: { id: string } }>('/api/payments/:id', async (request, reply) => {
    const payment = payments.get(request.params.id);
    if (!payment) return reply.status(404).send({ error: 'unknown payment' });
    return { paymentId: payment.id, status: payment.status, amount: payment.amount };
  });

  app.get<{ Params: { id: string } }>('/pay/:id', async (request, reply) => {
    const payment = payments.get(request.params.id);
    reply.type('text/html; charset=utf-8');
    if (!payment) return reply.status(404).send(page('Platba neexistuje', '<h1>Platba neexistuje</h1>'));
    if (payment.status !== 'created') {
      return reply.send(
        page('Platba je uzavretá', `<h1>Platba je uzavretá</h1><p><a href="${escape(payment.returnUrl)}">Späť do obchodu</a></p>`),
      );
    }
    return reply.send(
      page(
        'Platobná brána',
        `<h1>Platobná brána (simulátor)</h1><div class="card"><p>${escape(payment.description)}</p>
<p>Suma: <strong data-testid="gateway-amount">${euros(payment.amount)}</strong></p>
<form method="post" action="/pay/${payment.id}/pay"><button class="pay" type="submit">Zaplatiť</button></form>
<form method="post" action="/pay/${payment.id}/cancel"><button type="submit">Zrušiť platbu</button></form></div>`,
      ),
    );
  });

  const finish = (outcome: 'paid' | 'cancelled' | 'failed') => async (request: { params: { id: string } }, reply: FastifyReply) => {
    const payment = payments.get(request.params.id);
    if (!payment) return reply.status(404).type('text/html; charset=utf-8').send(page('Platba neexistuje', '<h1>Platba neexistuje</h1>'));
    if (payment.status === 'created') {
      payment.status = outcome;
      if (held) held.push({ ...payment });
      else await notify(opts.secret, payment, log);
    }
    return reply.redirect(payment.returnUrl, 303);
  };
  app.post<{ Params: { id: string } }>('/pay/:id/pay', finish('paid'));
  app.post<{ Params: { id: string } }>('/pay/:id/cancel', finish('cancelled'));
  app.post<{ Params: { id: string } }>('/pay/:id/fail', finish('failed'));

  await app.listen({ port: opts.port ?? 0, host: opts.host ?? '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  baseUrl = `http://127.0.0.1:${port}`;
  return {
    url: baseUrl,
    close: () => app.close(),
    holdNotifications: () => {
      held ??= [];
    },
    releaseNotifications: async () => {
      const due = held ?? [];
      held = null;
      await Promise.all(due.map((payment) => notify(opts.secret, payment, log)));
    },
  };
}
