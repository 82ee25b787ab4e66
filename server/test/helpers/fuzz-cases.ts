/**
 * A seeded fuzz of every route: thousands of malformed requests (wrong methods, bad and huge path
 * parameters, bad escapes, overlong paths, random query strings, JSON of every wrong shape and
 * bodies built from each route's own schema with one field of the wrong type, truncated and
 * malformed multipart, wrong content types, oversized headers, malformed HTTP), sent to one API
 * (test/platform/fuzz.test.ts) or through nginx to the cluster (test-cluster/). Nothing may answer 5xx or
 * drop the connection, and every 4xx of /api and /media must be the one error shape.
 */
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { createRng, type Rng } from '../../src/db/seed/prng.ts';

/** A route as the API registers it (method, URL pattern, and its schemas where it has them). */
export type Route = { method: string; url: string; schema?: { querystring?: unknown; body?: unknown } };
/** Where the fuzz is sent, and the credentials that let it past sign-in. */
/**
 * Where the requests go, the shopper's tokens, and on the operator origin a signed-in operator's
 * Cookie header (sent with half the requests, with the origin's own Origin or another).
 */
export type FuzzTarget = { url: string; token: string; logoutToken: string; operatorCookie?: string };
/** A request for node:http, or `raw` bytes written to a socket as they are (malformed HTTP). */
export type Case = { method: string; path: string; headers: Record<string, string>; body?: Buffer | string; raw?: string };
export type Answer = { status: number; type: string; text: string };
/** The little of JSON Schema the API's route schemas use. */
type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  maxItems?: number;
};

const WEIRD_SEGMENTS = [
  '%',
  '%zz',
  '%E0%A4%A',
  '..',
  '%2e%2e',
  '-1',
  '0',
  '1',
  '2',
  '2147483647',
  '2147483648',
  '1e9',
  '0x10',
  'NaN',
  'Infinity',
  '-Infinity',
  '1e400',
  '9'.repeat(30),
  'a'.repeat(250),
  '%C5%BE',
  '%00',
  '<script>',
  "'",
  '1.5',
  '%20',
  'null',
];
const VALUES: unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1.5,
  2 ** 53,
  -(2 ** 31),
  2 ** 31,
  1e308,
  '0x10',
  '1e3',
  '',
  ' ',
  'a'.repeat(5000),
  'žltá',
  '\u202e',
  [],
  [1, 2],
  {},
  { a: 1 },
  '<b>',
  NaN,
];
const STRINGS = [
  '',
  ' ',
  'a',
  'žltá dlažba',
  'zakaznik@example.sk',
  'a@b',
  '<script>alert(1)</script>',
  "'; DROP TABLE orders; --",
  '0',
  '-1',
  '\ud800',
  '🧱'.repeat(50),
];

function value(rng: Rng, depth = 0): unknown {
  if (depth < 3 && rng.chance(0.15)) return Array.from({ length: rng.int(0, 5) }, () => value(rng, depth + 1));
  if (depth < 3 && rng.chance(0.15))
    return Object.fromEntries(
      Array.from({ length: rng.int(0, 5) }, (_, i) => [
        rng.pick(['lines', 'email', 'amount', 'v_id', 'token', 'itemIds', `k${i}`]),
        value(rng, depth + 1),
      ]),
    );
  return structuredClone(rng.pick(VALUES));
}

/** A value the schema accepts, at its edges (bounds, lengths, odd text), so the request gets past validation. */
function fromSchema(rng: Rng, schema: Schema, depth = 0): unknown {
  if (schema.enum) return rng.pick(schema.enum);
  const type = Array.isArray(schema.type) ? rng.pick(schema.type) : (schema.type ?? (schema.properties ? 'object' : undefined));
  switch (type) {
    case 'object':
      return Object.fromEntries(
        Object.entries(schema.properties ?? {})
          .filter(() => rng.chance(0.85))
          .map(([key, sub]) => [key, fromSchema(rng, sub, depth + 1)]),
      );
    case 'array':
      return depth > 4
        ? []
        : Array.from({ length: rng.int(0, Math.min(schema.maxItems ?? 4, 4)) }, () => fromSchema(rng, schema.items ?? {}, depth + 1));
    case 'integer':
    case 'number': {
      const min = schema.minimum ?? -(2 ** 31);
      const max = schema.maximum ?? 2 ** 31 - 1;
      const n = rng.pick([min, max, 1, 2, 3, rng.int(Math.max(min, -1000), Math.min(max, 1000))]);
      return Math.min(max, Math.max(min, type === 'number' && rng.chance(0.3) ? n + 0.5 : n));
    }
    case 'boolean':
      return rng.chance(0.5);
    case 'string': {
      const s = rng.chance(0.2) ? 'x'.repeat(schema.maxLength ?? 300) : rng.pick(STRINGS);
      return s.length < (schema.minLength ?? 0) ? s.padEnd(schema.minLength ?? 0, 'a') : s;
    }
    case 'null':
      return null;
    default:
      return value(rng, depth);
  }
}

/** A body from the route's schema with one field (perhaps nested) swapped for a value of another type. */
function wrongField(rng: Rng, schema: Schema): unknown {
  const body = fromSchema(rng, schema);
  if (body === null || typeof body !== 'object') return structuredClone(rng.pick(VALUES));
  let target = body as Record<string, unknown>;
  for (let depth = 0; depth < 3; depth++) {
    const keys = Object.keys(target);
    if (keys.length === 0) break;
    const key = rng.pick(keys);
    const inner: unknown = target[key];
    const deeper: unknown = Array.isArray(inner) ? inner[0] : inner;
    if (deeper !== null && typeof deeper === 'object' && rng.chance(0.5)) {
      target = deeper as Record<string, unknown>;
      continue;
    }
    // A copy: the values are shared, and a later swap inside one of them would make it circular.
    target[key] = structuredClone(rng.pick(VALUES));
    return body;
  }
  target[rng.pick(['lines', 'amount', 'email', 'x'])] = structuredClone(rng.pick(VALUES));
  return body;
}

/** Percent-encodes text; a lone surrogate becomes the bytes of its (invalid) UTF-8 encoding. */
function encode(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return '%ED%A0%80';
  }
}

/** Replaces each `:param` with a weird value, and adds a random or schema-built query string. */
function mangle(rng: Rng, route: Route): string {
  let path = route.url.replace(/:[A-Za-z_]+/g, () => rng.pick(WEIRD_SEGMENTS)).replace(/\*/g, rng.pick(WEIRD_SEGMENTS));
  if (rng.chance(0.1)) path += rng.pick(['/', '//', '/x', '%', '?%', '%23', '/..%2f..%2f', ';a=1']);
  const querySchema = route.schema?.querystring as Schema | undefined;
  if (querySchema && rng.chance(0.4)) {
    const query = wrongField(rng, querySchema) as Record<string, unknown>;
    const pairs = Object.entries(typeof query === 'object' && query ? query : {}).map(
      ([k, v]) => `${encode(k)}=${encode(typeof v === 'string' ? v : (JSON.stringify(v) ?? ''))}`,
    );
    path += `?${pairs.join('&')}`;
  } else if (rng.chance(0.3)) {
    const pairs = Array.from(
      { length: rng.int(1, 30) },
      () =>
        `${rng.pick(['page', 'sort', 'q', 'category', 'brands', 'f1', 'r2', 'avail', 'price', 'x', '%', 'f999999999', 'page[]', '__proto__'])}=${encode(String(value(rng))).slice(0, 300)}`,
    );
    path += `?${pairs.join('&')}`;
  }
  return path;
}

/** A complaint form, damaged one way or another (or, once in a while, whole). */
function multipart(rng: Rng): { body: Buffer; type: string } {
  const boundary = `----fuzz${rng.int(0, 1e9)}`;
  const parts = [
    `--${boundary}\r\nContent-Disposition: form-data; name="orderToken"\r\n\r\n${'A'.repeat(32)}\r\n`,
    `--${boundary}\r\nContent-Disposition: form-data; name="itemId"\r\n\r\n${rng.pick(WEIRD_SEGMENTS)}\r\n`,
    `--${boundary}\r\nContent-Disposition: form-data; name="description"\r\n\r\n${rng.pick(['Rozbitá\u0000 dlažba po doručení', 'Rozbitá dlažba po doručení', 'x'.repeat(rng.int(0, 5000))])}\r\n`,
    `--${boundary}\r\nContent-Disposition: form-data; name="${rng.pick(['photos', '__proto__', 'constructor', ''])}"; filename="${rng.pick(['a.jpg', '../../etc/passwd', '', 'ž.png'])}"\r\nContent-Type: image/jpeg\r\n\r\n\xff\xd8\xff${'x'.repeat(rng.int(0, 2000))}\r\n`,
    `--${boundary}--\r\n`,
  ].join('');
  let body = Buffer.from(parts, 'latin1');
  const damage = rng.int(0, 7);
  if (damage === 0) body = body.subarray(0, rng.int(1, body.length - 1)); // truncated
  if (damage === 1) body = Buffer.from(body.toString('latin1').replace('Content-Disposition', 'Content-Dispo\r\n'), 'latin1'); // malformed part header
  if (damage === 2) body = Buffer.from(`garbage${body.toString('latin1')}`, 'latin1');
  if (damage === 3) body = Buffer.from(body.toString('latin1').replaceAll('\r\n', '\n'), 'latin1'); // bare line feeds
  if (damage === 4) body = Buffer.from(body.toString('latin1').replace(/--\r\n$/, ''), 'latin1'); // no closing boundary
  if (damage === 5) body = Buffer.from(`${body.toString('latin1').slice(0, -2)}${'y'.repeat(rng.int(1, 3000))}`, 'latin1'); // bytes after the end
  const type =
    damage === 6
      ? rng.pick([
          'multipart/form-data',
          'multipart/form-data; boundary=',
          'multipart/form-data; boundary=nope',
          'multipart/mixed; boundary=x',
        ])
      : `multipart/form-data; boundary=${boundary}`;
  return { body, type };
}

function makeCase(rng: Rng, route: Route, target: FuzzTarget): Case {
  const method = rng.chance(0.15)
    ? rng.pick(['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'PROPFIND', 'TRACE'])
    : route.method;
  const headers: Record<string, string> = {};
  const valid = route.url === '/api/account/logout' ? target.logoutToken : target.token;
  if (rng.chance(0.5))
    headers.authorization = `Bearer ${rng.chance(0.6) ? valid : rng.pick(['x', 'a.b.c', 'Bearer', '%', `${valid}x`, valid.split('.').slice(0, 2).join('.')])}`;
  if (target.operatorCookie && rng.chance(0.5)) {
    headers.cookie = rng.chance(0.8) ? target.operatorCookie : rng.pick(['__Host-shop_ops=wrong', '__Host-shop_ops=', 'x']);
    headers.origin = rng.chance(0.8) ? new URL(target.url).origin : rng.pick(['https://evil.example', 'null']);
  }
  if (rng.chance(0.05)) headers['accept-encoding'] = rng.pick(['gzip', 'br', 'identity;q=0', '*;q=0', 'x'.repeat(500)]);
  const c: Case = { method, path: mangle(rng, route), headers };
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS' || method === 'TRACE') return c;
  const bodySchema = route.schema?.body as Schema | undefined;
  const kind = rng.int(0, 11);
  headers['content-type'] = 'application/json';
  if (kind <= 2 && bodySchema) {
    c.body = JSON.stringify(kind === 0 ? fromSchema(rng, bodySchema) : wrongField(rng, bodySchema));
  } else if (kind <= 4) {
    c.body = JSON.stringify(value(rng));
  } else if (kind === 5) {
    c.body = `{"a":${'['.repeat(rng.int(1, 3000))}`; // broken and deeply nested
  } else if (kind === 6) {
    const depth = rng.int(100, 5000); // valid and deeply nested
    c.body = rng.chance(0.5)
      ? `{"lines":${'['.repeat(depth)}${']'.repeat(depth)}}`
      : `${'{"a":'.repeat(depth)}{"__proto__":{"x":1}}${'}'.repeat(depth)}`;
  } else if (kind === 7) {
    const m = multipart(rng);
    headers['content-type'] = m.type;
    c.body = m.body;
  } else if (kind === 8) {
    headers['content-type'] = rng.pick([
      'text/plain',
      'application/xml',
      'application/x-www-form-urlencoded',
      'image/png',
      '',
      'application/json; charset=utf-16',
      'application/json, text/plain',
      'APPLICATION/JSON',
    ]);
    c.body = rng.pick(['a=1&b=2', '{}', '\u0000', '']);
  } else if (kind === 9) {
    c.body = JSON.stringify({ data: 'x'.repeat(rng.int(200_000, 300_000)) }); // near and over the body limit
  } else {
    c.body = rng.pick([
      'null',
      '[]',
      '"text"',
      '0',
      'true',
      '{"__proto__":{"admin":true}}',
      '{"constructor":{"prototype":{"x":1}}}',
      '',
      ' ',
    ]);
  }
  return c;
}

/** Cases the random mix seldom reaches, each a few times over. */
function extraCases(rng: Rng, routes: Route[], target: FuzzTarget, complaintForms: number): Case[] {
  const cases: Case[] = [];
  const auth = { authorization: `Bearer ${target.token}` };
  // Damaged complaint forms with a valid sign-in, so the form is actually read.
  for (let i = 0; i < complaintForms; i++) {
    const m = multipart(rng);
    cases.push({ method: 'POST', path: '/api/account/complaints', headers: { ...auth, 'content-type': m.type }, body: m.body });
  }
  // Every odd segment in every parameter of every route, whatever the seed picks.
  for (const route of routes.filter((r) => /[:*]/.test(r.url))) {
    for (const segment of WEIRD_SEGMENTS) {
      cases.push({
        method: route.method,
        path: route.url.replace(/:[A-Za-z_]+|\*/g, segment),
        headers: { ...auth, 'content-type': 'application/json' },
        body: route.method === 'GET' ? undefined : '{}',
      });
    }
  }
  // HEAD on every route.
  for (const route of routes) cases.push({ method: 'HEAD', path: route.url.replace(/:[A-Za-z_]+|\*/g, '1'), headers: auth });
  // Overlong paths: under /api, under /media, in a parameter; up to past the header limit.
  for (const length of [1_000, 5_000, 15_000, 17_000, 40_000]) {
    cases.push({ method: 'GET', path: `/api/${'a'.repeat(length)}`, headers: {} });
    cases.push({ method: 'GET', path: `/media/p/${'9'.repeat(length)}.svg`, headers: {} });
    cases.push({ method: 'GET', path: `/api/product/${'%C5%BE'.repeat(Math.floor(length / 6))}`, headers: {} });
  }
  // Oversized headers (Node's parser refuses them before any route): one big, many small, a big cookie or token.
  for (const path of ['/api/home', '/api/account/me', '/media/p/1.svg', '/api/nic']) {
    cases.push({ method: 'GET', path, headers: { 'x-big': 'a'.repeat(20_000) } });
    cases.push({ method: 'GET', path, headers: Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`x-h${i}`, 'b'.repeat(80)])) });
    cases.push({ method: 'GET', path, headers: { cookie: `s=${'c'.repeat(17_000)}` } });
    cases.push({
      method: 'POST',
      path,
      headers: { authorization: `Bearer ${'t'.repeat(20_000)}`, 'content-type': 'application/json' },
      body: '{}',
    });
    cases.push({ method: 'GET', path, headers: { authorization: `Bearer ${'t'.repeat(8_000)}` } }); // under the limit: a bad token
  }
  // Malformed HTTP written as it is: bad chunk sizes, both lengths, bad header names, odd request lines.
  const raws = [
    'POST /api/account/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n{}\r\n0\r\n\r\n',
    'POST /api/account/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n',
    'POST /api/account/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: -1\r\n\r\n{}',
    'POST /api/account/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}',
    'GET /api/home HTTP/1.1\r\nHost: x\r\nBad Header: 1\r\n\r\n',
    'GET /api/home HTTP/1.1\r\nHost: x\r\nX: a\u0000b\r\n\r\n',
    'FOO /api/home HTTP/1.1\r\nHost: x\r\n\r\n',
    'GET api/home HTTP/1.1\r\nHost: x\r\n\r\n',
    'GET /api/home HTTP/9.9\r\nHost: x\r\n\r\n',
    'HELLO THERE\r\n\r\n',
    `POST /api/account/complaints HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${target.token}\r\nContent-Type: multipart/form-data; boundary=b\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n--b\r\n\r\n0\r\n\r\n`,
  ];
  // Named under /api so that their answers are held to the error shape too.
  for (const raw of raws) cases.push({ method: 'RAW', path: `/api ${raw.slice(0, raw.indexOf('\r\n'))}`, headers: {}, raw });
  return cases;
}

/** node:http, not fetch: it sends what fetch would refuse (bad escapes, odd methods, huge headers). */
function send(url: string, c: Case): Promise<Answer> {
  const { port } = new URL(url);
  if (c.raw !== undefined) return sendRaw(Number(port), c.raw);
  // Node's client sends a DELETE or OPTIONS body with no length unless told: the server would read it as the next request.
  const headers = c.body === undefined ? c.headers : { ...c.headers, 'content-length': String(Buffer.byteLength(c.body)) };
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method: c.method, path: c.path, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type'] ?? ''), text }));
    });
    req.on('error', reject);
    req.end(c.body);
  });
}

/** Writes the bytes on a socket and reads the one answer until the server closes the connection. */
function sendRaw(port: number, raw: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(raw));
    let answer = '';
    socket.setEncoding('latin1').on('data', (chunk: string) => {
      answer += chunk;
      // Malformed HTTP closes the connection; a request that parsed keeps it alive once answered.
      if (/\r\n\r\n/.test(answer) && /content-length: (\d+)/i.test(answer)) {
        const length = Number(/content-length: (\d+)/i.exec(answer)![1]);
        if (Buffer.byteLength(answer.slice(answer.indexOf('\r\n\r\n') + 4), 'latin1') >= length) socket.destroy();
      }
    });
    socket.on('close', () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0);
      const type = /content-type: ([^\r\n]+)/i.exec(answer)?.[1] ?? '';
      resolve({ status, type, text: Buffer.from(answer.slice(answer.indexOf('\r\n\r\n') + 4), 'latin1').toString('utf8') });
    });
    socket.on('error', reject);
    setTimeout(() => socket.destroy(), 5_000).unref();
  });
}

/** What is wrong with an answer, or null: no 5xx, no dropped connection, every 4xx of /api and /media in the error shape. */
function problemWith(c: Case, res: Answer): string | null {
  const where = `${c.method} ${c.path.slice(0, 120)} (${c.headers['content-type'] ?? '-'})`;
  if (res.status >= 500 || res.status === 0) return `${res.status} ${where}: ${res.text.slice(0, 200)}`;
  if (res.status < 400 || !(c.path.startsWith('/api') || c.path.startsWith('/media'))) return null;
  if (!/^application\/json/.test(res.type)) return `type ${res.status} ${where}: ${res.type || 'none'}`;
  if (c.method === 'HEAD') return null; // no body by definition
  try {
    const body = JSON.parse(res.text) as { error?: { code?: unknown; message?: unknown } };
    if (typeof body.error?.code === 'string' && typeof body.error.message === 'string' && body.error.message.length > 0) return null;
  } catch {
    // not JSON: reported below
  }
  return `shape ${res.status} ${where}: ${res.text.slice(0, 200)}`;
}

export type FuzzRun = { requests: number; problems: string[]; byClass: Record<string, number>; seconds: number };

/** Sends `requests` random cases over the routes plus the targeted ones, 8 at a time; answers what went wrong. */
export async function fuzz(
  target: FuzzTarget,
  routes: Route[],
  options: { seed: number; requests: number; complaintForms: number },
): Promise<FuzzRun> {
  const started = Date.now();
  const rng = createRng(options.seed);
  const byClass: Record<string, number> = {};
  const problems: string[] = [];
  const cases: Case[] = [
    ...Array.from({ length: options.requests }, (_, i) => makeCase(rng, routes[i % routes.length]!, target)),
    ...extraCases(rng, routes, target, options.complaintForms),
  ];
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let c = cases[next++]; c; c = cases[next++]) {
        const res = await send(target.url, c).catch((error: Error): Answer => ({ status: 0, type: '', text: error.message }));
        const cls = res.status === 0 ? 'reset' : `${Math.floor(res.status / 100)}xx`;
        byClass[cls] = (byClass[cls] ?? 0) + 1;
        const problem = problemWith(c, res);
        if (problem) problems.push(problem);
      }
    }),
  );
  return { requests: cases.length, problems, byClass, seconds: (Date.now() - started) / 1000 };
}
