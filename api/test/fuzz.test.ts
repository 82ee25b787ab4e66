/**
 * A seeded fuzz of every route the API registers: thousands of malformed requests (wrong methods,
 * bad and huge path parameters, bad escapes, random query strings, JSON of every wrong shape,
 * truncated and malformed multipart, wrong content types, oversized headers). Nothing may answer
 * 5xx, every 4xx must be the one error shape, and the server must still answer afterwards.
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRng, type Rng } from '../src/db/seed/prng.ts';
import { defaultCheckoutOptions } from '../src/routes/checkout/checkout-options.ts';
import { startTestApi, type TestApi } from './helpers/test-api.ts';

const SEED = 20261122;
const REQUESTS = 3600;

let api: TestApi;
let token: string;
beforeAll(async () => {
  api = await startTestApi({ checkout: (dataDir) => ({ ...defaultCheckoutOptions(dataDir), operatorToken: 'fuzz-operator-token' }) });
  token = (await api.login()).token;
});
afterAll(async () => {
  await api?.close();
});

type Case = { method: string; path: string; headers: Record<string, string>; body?: Buffer | string };

const WEIRD_SEGMENTS = ['%', '%zz', '%E0%A4%A', '..', '%2e%2e', '-1', '0', '1e9', '0x10', 'NaN', '9'.repeat(30), 'a'.repeat(250), '%C5%BE', '%00', '<script>', "'", '1.5', '%20', 'null'];
const VALUES: unknown[] = [null, true, false, 0, -1, 1.5, 2 ** 53, -(2 ** 31), '0x10', '1e3', '', ' ', 'a'.repeat(5000), 'žltá', [], [1, 2], {}, { a: 1 }, '<b>', NaN];

function value(rng: Rng, depth = 0): unknown {
  if (depth < 3 && rng.chance(0.15)) return Array.from({ length: rng.int(0, 5) }, () => value(rng, depth + 1));
  if (depth < 3 && rng.chance(0.15)) return Object.fromEntries(Array.from({ length: rng.int(0, 5) }, (_, i) => [rng.pick(['lines', 'email', 'amount', 'v_id', 'token', 'itemIds', `k${i}`]), value(rng, depth + 1)]));
  return rng.pick(VALUES);
}

/** Replaces each `:param` with a weird value, or the whole path with an odd one. */
function mangle(rng: Rng, url: string): string {
  let path = url.replace(/:[A-Za-z]+/g, () => rng.pick(WEIRD_SEGMENTS)).replace(/\*/g, rng.pick(WEIRD_SEGMENTS));
  if (rng.chance(0.1)) path += rng.pick(['/', '//', '/x', '%', '?%', '%23']);
  if (rng.chance(0.3)) {
    const pairs = Array.from({ length: rng.int(1, 30) }, () => `${rng.pick(['page', 'sort', 'q', 'category', 'brands', 'f1', 'r2', 'avail', 'price', 'x', '%', 'f999999999'])}=${encodeURIComponent(String(value(rng))).slice(0, 300)}`);
    path += `?${pairs.join('&')}`;
  }
  return path;
}

function multipart(rng: Rng): { body: Buffer; type: string } {
  const boundary = `----fuzz${rng.int(0, 1e9)}`;
  const parts = [
    `--${boundary}\r\nContent-Disposition: form-data; name="orderToken"\r\n\r\n${'A'.repeat(32)}\r\n`,
    `--${boundary}\r\nContent-Disposition: form-data; name="description"\r\n\r\n${rng.pick(['Rozbitá\u0000 dlažba po doručení', 'x'.repeat(rng.int(0, 5000))])}\r\n`,
    `--${boundary}\r\nContent-Disposition: form-data; name="photos"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n\xff\xd8\xff${'x'.repeat(rng.int(0, 2000))}\r\n`,
    `--${boundary}--\r\n`,
  ].join('');
  let body = Buffer.from(parts, 'latin1');
  const damage = rng.int(0, 4);
  if (damage === 0) body = body.subarray(0, rng.int(1, body.length - 1)); // truncated
  if (damage === 1) body = Buffer.from(body.toString('latin1').replace('Content-Disposition', 'Content-Dispo\r\n'), 'latin1'); // malformed part header
  if (damage === 2) body = Buffer.from(`garbage${body.toString('latin1')}`, 'latin1');
  const type = damage === 3 ? 'multipart/form-data' : `multipart/form-data; boundary=${boundary}`;
  return { body, type };
}

function makeCase(rng: Rng, route: { method: string; url: string }): Case {
  const method = rng.chance(0.15) ? rng.pick(['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) : route.method;
  const headers: Record<string, string> = {};
  if (rng.chance(0.5)) headers.authorization = `Bearer ${rng.chance(0.6) ? token : rng.pick(['x', 'a.b.c', 'Bearer', '%'])}`;
  if (rng.chance(0.1)) headers['x-operator-token'] = rng.pick(['wrong', 'fuzz-operator-token']);
  const c: Case = { method, path: mangle(rng, route.url), headers };
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return c;
  const kind = rng.int(0, 9);
  if (kind <= 4) {
    headers['content-type'] = 'application/json';
    c.body = JSON.stringify(value(rng));
  } else if (kind === 5) {
    headers['content-type'] = 'application/json';
    c.body = `{"a":${'['.repeat(rng.int(1, 3000))}`; // broken and deeply nested
  } else if (kind === 6) {
    const m = multipart(rng);
    headers['content-type'] = m.type;
    c.body = m.body;
  } else if (kind === 7) {
    headers['content-type'] = rng.pick(['text/plain', 'application/xml', 'application/x-www-form-urlencoded', 'image/png', '']);
    c.body = 'a=1&b=2';
  } else if (kind === 8) {
    headers['content-type'] = 'application/json';
    c.body = JSON.stringify({ data: 'x'.repeat(rng.int(200_000, 300_000)) }); // near and over the body limit
  } else {
    headers['content-type'] = 'application/json';
    c.body = JSON.stringify(null);
  }
  return c;
}

/** node:http, not fetch: it sends what fetch would refuse (bad escapes, odd methods, huge headers). */
function send(c: Case): Promise<{ status: number; type: string; text: string }> {
  const { port } = new URL(api.baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method: c.method, path: c.path, headers: c.headers }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type'] ?? ''), text }));
    });
    req.on('error', reject);
    req.end(c.body);
  });
}

describe('fuzz', () => {
  it(`${REQUESTS} random malformed requests and every odd path parameter across every route: no 5xx, every 4xx in the error shape, the server still answers`, { timeout: 120_000 }, async () => {
    const rng = createRng(SEED);
    const routes = api.routes.filter((r) => r.method !== 'HEAD');
    expect(routes.length).toBeGreaterThan(50);
    const byClass: Record<string, number> = {};
    const problems: string[] = [];
    const cases: Case[] = Array.from({ length: REQUESTS }, (_, i) => makeCase(rng, routes[i % routes.length]!));
    // And every odd segment in every parameter of every route, whatever the seed picks.
    for (const route of routes.filter((r) => /[:*]/.test(r.url))) {
      for (const segment of WEIRD_SEGMENTS) {
        cases.push({ method: route.method, path: route.url.replace(/:[A-Za-z]+|\*/g, segment), headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: route.method === 'GET' ? undefined : '{}' });
      }
    }
    // Oversized headers (Node's parser refuses them before any route).
    cases.push({ method: 'GET', path: '/api/home', headers: { 'x-big': 'a'.repeat(20_000) } });
    let next = 0;
    await Promise.all(Array.from({ length: 8 }, async () => {
      for (let c = cases[next++]; c; c = cases[next++]) {
        const res = await send(c).catch((error: Error) => ({ status: 0, type: '', text: error.message }));
        const cls = res.status === 0 ? 'reset' : `${Math.floor(res.status / 100)}xx`;
        byClass[cls] = (byClass[cls] ?? 0) + 1;
        const where = `${c.method} ${c.path.slice(0, 120)} (${c.headers['content-type'] ?? '-'})`;
        if (res.status >= 500 || res.status === 0) problems.push(`${res.status} ${where}: ${res.text.slice(0, 200)}`);
        if (res.status >= 400 && res.status < 500 && (c.path.startsWith('/api') || c.path.startsWith('/media'))) {
          let ok = /^application\/json/.test(res.type);
          try {
            const body = JSON.parse(res.text) as { error?: { code?: unknown; message?: unknown } };
            ok &&= typeof body.error?.code === 'string' && typeof body.error.message === 'string' && body.error.message.length > 0;
          } catch {
            ok = false;
          }
          if (!ok) problems.push(`shape ${res.status} ${where}: ${res.text.slice(0, 200)}`);
        }
      }
    }));
    console.log(`fuzz: ${cases.length} requests over ${routes.length} routes, by status class ${JSON.stringify(byClass)}`);
    expect(problems).toEqual([]);
    const home = await api.get('/api/home');
    expect(home.status).toBe(200);
  });
});
