/**
 * The seeded fuzz (helpers/fuzz-cases.ts) against one API on this run's engine: no 5xx, no dropped
 * connection, every 4xx in the error shape, and the server still answers afterwards. The
 * multi-server tests send the same fuzz through nginx.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzz } from '../helpers/fuzz-cases.ts';
import { startTestApi, type TestApi } from '../helpers/test-api.ts';

/** The same requests on every run; FUZZ_SEED=<n> explores others (a failure names its requests). */
const SEED = Number(process.env.FUZZ_SEED ?? 20261122);
const REQUESTS = 6000;
const COMPLAINT_FORMS = 300;

let api: TestApi;
let token: string;
/** Signing out revokes the token it is sent with: the sign-out route gets a token of its own. */
let logoutToken: string;
beforeAll(async () => {
  api = await startTestApi();
  token = (await api.login()).token;
  logoutToken = (await api.login()).token;
});
afterAll(async () => {
  await api?.close();
});

describe('fuzz', () => {
  it(
    `${REQUESTS} random malformed requests plus targeted ones across every route: no 5xx, every 4xx in the error shape, the server still answers`,
    { timeout: 120_000 },
    async () => {
      const routes = api.routes.filter((r) => r.method !== 'HEAD');
      expect(routes.length).toBeGreaterThan(50);
      expect(routes.some((r) => r.method === 'POST' && r.url === '/api/account/complaints')).toBe(true);
      const run = await fuzz({ url: api.baseUrl, token, logoutToken }, routes, {
        seed: SEED,
        requests: REQUESTS,
        complaintForms: COMPLAINT_FORMS,
      });
      console.log(
        `fuzz (seed ${SEED}): ${run.requests} requests over ${routes.length} routes in ${run.seconds.toFixed(1)} s, by status class ${JSON.stringify(run.byClass)}`,
      );
      expect(run.problems).toEqual([]);
      const home = await api.get('/api/home');
      expect(home.status).toBe(200);
    },
  );

  it(
    'the operator origin, with a signed-in operator or without: no 5xx, every 4xx in the error shape, the server still answers',
    { timeout: 120_000 },
    async () => {
      const routes = api.opsRoutes.filter((r) => r.method !== 'HEAD' && r.url !== '/api/ops/session');
      expect(routes.length).toBeGreaterThan(20);
      const { cookie } = await api.operator();
      const run = await fuzz({ url: api.opsUrl, token, logoutToken, operatorCookie: cookie }, routes, {
        seed: SEED,
        requests: REQUESTS / 4,
        complaintForms: 0,
      });
      expect(run.problems).toEqual([]);
      expect((await api.ops('GET', '/api/ops/session', { cookie })).status).toBe(200);
    },
  );
});
