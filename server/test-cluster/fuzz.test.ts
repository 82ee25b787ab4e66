/**
 * The API tests' seeded fuzz (test/helpers/fuzz-cases.ts) sent through nginx: whatever nginx
 * refuses itself (headers or a body past its limits, malformed HTTP) must answer as the servers
 * do, in the error shape with a request id, and nothing may answer 5xx or drop the connection.
 * It runs last (vitest.config.ts): it spends the address's sign-in limits.
 */
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { accountCalls, catalogCalls, checkoutCalls, contentCalls, opsCalls } from '@shop/shared-kernel/schemas';
import { fuzz, type Route } from '../test/helpers/fuzz-cases.ts';

const cluster = inject('cluster');
const SEED = Number(process.env.FUZZ_SEED ?? 20261127);
const REQUESTS = 2500;

/** The routes of the contract (the API's own, every one with its schemas), as the router writes them. */
const routes: Route[] = Object.entries({ ...catalogCalls, ...contentCalls, ...accountCalls, ...checkoutCalls, ...opsCalls }).map(
  ([key, call]) => {
    const [method, url] = key.split(' ') as [string, string];
    const schema = call as { query?: unknown; body?: unknown };
    return { method, url, schema: { querystring: schema.query, body: schema.body } };
  },
);

/** A customer of the fuzz's own (the demo customer's password is changed by another file). */
const customer = { email: `fuzz-${Date.now()}@example.sk`, password: 'Heslo123!' };
async function signIn(): Promise<string> {
  const res = await fetch(`${cluster.url}/api/account/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(customer),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: { token: string } }).data.token;
}

let token: string;
let logoutToken: string;
beforeAll(async () => {
  const registered = await fetch(`${cluster.url}/api/account/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...customer, name: 'Fero Fuzz' }),
  });
  expect(registered.status).toBe(202);
  token = await signIn();
  logoutToken = await signIn();
});

describe('the fuzz through nginx', () => {
  it(
    `${REQUESTS} random malformed requests plus targeted ones: no 5xx, every 4xx of /api in the error shape, nginx's own refusals too`,
    { timeout: 300_000 },
    async () => {
      expect(routes.length).toBeGreaterThan(50);
      const run = await fuzz({ url: cluster.url, token, logoutToken }, routes, {
        seed: SEED,
        requests: REQUESTS,
        complaintForms: 100,
      });
      console.log(
        `fuzz through nginx (seed ${SEED}): ${run.requests} requests over ${routes.length} routes in ${run.seconds.toFixed(1)} s, by status class ${JSON.stringify(run.byClass)}`,
      );
      expect(run.problems).toEqual([]);
      expect((await fetch(`${cluster.url}/api/ready`)).status).toBe(200);
    },
  );

  it("what nginx refuses itself names nginx's request id, in JSON for /api and as the shop's page elsewhere", async () => {
    const huge = { 'x-big': 'a'.repeat(70_000) };
    const api = await fetch(`${cluster.url}/api/home`, { headers: huge });
    expect(api.status).toBe(431);
    expect(api.headers.get('content-type')).toMatch(/^application\/json/);
    const id = api.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(((await api.json()) as { error: { code: string; message: string } }).error.message).toContain(id);
    expect(api.headers.get('x-content-type-options')).toBe('nosniff');
    expect(api.headers.get('x-frame-options')).toBe('DENY');
    const page = await fetch(`${cluster.url}/kategoria/tehly`, { headers: huge });
    expect(page.status).toBe(431);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await page.text()).toContain('Späť na úvodnú stránku');
  });
});
