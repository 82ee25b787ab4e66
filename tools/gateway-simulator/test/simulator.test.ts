/**
 * The simulator on its own: it takes only signed payments, shows its payment page, and its start
 * entry (what the launchers run) refuses to start without the secret it shares with the shop.
 * The shop's side of the protocol is tested against it in api/test (checkout, money-safety).
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sign, SIGNATURE_HEADER, type CreatePaymentRequest } from '../src/protocol.ts';
import { startGatewaySimulator, type GatewaySimulator } from '../src/simulator.ts';

const SECRET = 'simulator-test-secret';
let gateway: GatewaySimulator;

beforeAll(async () => {
  gateway = await startGatewaySimulator({ secret: SECRET });
});
afterAll(async () => {
  await gateway?.close();
});

const payment: CreatePaymentRequest = {
  merchantRef: '2026-000123',
  amount: 12_345,
  currency: 'EUR',
  description: 'Objednávka 2026-000123',
  returnUrl: 'http://shop.test/payment/pending',
  notifyUrl: 'http://127.0.0.1:9/api/payments/notify',
};

const create = (body: string, signature: string) =>
  fetch(`${gateway.url}/api/payments`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signature },
    body,
  });

describe('the card gateway simulator', () => {
  it('creates a signed payment and shows its page with the amount', async () => {
    const body = JSON.stringify(payment);
    const created = await create(body, sign(SECRET, body));
    expect(created.status).toBe(201);
    const { paymentId, redirectUrl } = (await created.json()) as { paymentId: string; redirectUrl: string };
    expect(redirectUrl).toBe(`${gateway.url}/pay/${paymentId}`);
    const page = await (await fetch(redirectUrl)).text();
    expect(page).toContain('123,45 €');
    expect(page).toContain('Zaplatiť');
    expect(await (await fetch(`${gateway.url}/api/payments/${paymentId}`)).json()).toEqual({
      paymentId,
      status: 'created',
      amount: 12_345,
    });
  });

  it('refuses a payment signed with another secret', async () => {
    const body = JSON.stringify(payment);
    expect((await create(body, sign('another-secret', body))).status).toBe(401);
  });

  it('does not start without GATEWAY_SECRET', async () => {
    const run = await new Promise<{ code: number; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        ['--import', 'tsx', 'src/start.ts'],
        { cwd: join(import.meta.dirname, '..'), env: { ...process.env, GATEWAY_SECRET: '' } },
        (error, _stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stderr }),
      );
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('GATEWAY_SECRET is not set');
  });
});
