/**
 * Two web servers and two workers, separate processes, behind nginx on PostgreSQL and Redis
 * (global-setup.mjs): what one server learns or decides holds on the other.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { ProductDetail } from '@shop/shared-kernel/contract';
import { courierOrder } from '../test/helpers/checkout-contact.ts';
import { signInWithSecondFactor } from '../test/helpers/operator-session.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    cluster: {
      url: string;
      web: string[];
      workers: string[];
      /** nginx's operator origin, and each web server's own operator port. */
      opsUrl: string;
      webOps: string[];
      /** An operator with a second factor, signed in through nginx's operator origin. */
      operator: { name: string; password: string; cookie: string; secret: string };
      databaseUrl: string;
      dataDir: string;
      mailDir: string;
      /** A metrics credential (Prometheus's bearer token). */
      metricsToken: string;
      releaseEnv: Record<string, string>;
    };
  }
}

const cluster = inject('cluster');
const [webA, webB] = cluster.web as [string, string];
let db: pg.Pool;
beforeAll(() => {
  db = new pg.Pool({ connectionString: cluster.databaseUrl, max: 2 });
});
afterAll(async () => {
  await db?.end();
});

type Answer<T> = { status: number; headers: Headers; body: T };
async function call<T = unknown>(
  base: string,
  path: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Answer<T>> {
  const res = await fetch(`${base}${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: { ...(init.body === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : null) as T };
}

const order = courierOrder;

/** An in-stock variant no other test uses (each call takes the next one). */
let taken = 0;
async function inStockVariant(): Promise<{ v_id: number; v_stock: number; p_url: string }> {
  const { rows } = await db.query<{ v_id: number; v_stock: number; p_url: string }>(
    `select v.v_id, v.v_stock, p.p_url from variants v join products p on p.p_id = v.p_id
     where v.v_availability = 'in_stock' and v.v_stock >= 10 and v.v_weight between 1 and 2000
     order by v.v_id offset $1 limit 1`,
    [taken++],
  );
  return rows[0]!;
}

describe('two shop servers behind nginx on PostgreSQL and Redis', () => {
  it('nginx answers from both servers', async () => {
    const site = await call(cluster.url, '/api/site');
    expect(site.status).toBe(200);
    for (const server of cluster.web) expect((await call(server, '/api/ready')).status).toBe(200);
  });

  it('a rate limit holds across both servers: the contact form takes 5 messages per address, wherever they land', async () => {
    // The servers trust X-Forwarded-For from loopback (nginx): one made-up client address for this test.
    const headers = { 'x-forwarded-for': '203.0.113.77' };
    const message = { name: 'Ján Test', email: 'jan@example.sk', message: 'Dobrý deň, máte na sklade tehly?' };
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await call(i % 2 === 0 ? webA : webB, '/api/contact', { body: message, headers })).status);
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
    // Another address is not affected.
    expect((await call(webB, '/api/contact', { body: message, headers: { 'x-forwarded-for': '203.0.113.78' } })).status).toBe(201);
  });

  it('an order placed through one server shows its stock through the other within a second', async () => {
    const variant = await inStockVariant();
    const stockOn = async (server: string) => {
      const res = await call<{ data: ProductDetail }>(server, `/api/product/${variant.p_url}`);
      return { cache: res.headers.get('x-cache'), stock: res.body.data.variants.find((v) => v.v_id === variant.v_id)!.v_stock };
    };
    await stockOn(webB);
    expect(await stockOn(webB)).toEqual({ cache: 'HIT', stock: variant.v_stock });

    expect((await call(webA, '/api/orders', { body: order(variant.v_id, 2) })).status).toBe(201);
    const placed = Date.now();
    let seen = await stockOn(webB);
    while (seen.stock !== variant.v_stock - 2 && Date.now() - placed < 5_000) {
      await new Promise((r) => setTimeout(r, 20));
      seen = await stockOn(webB);
    }
    expect(seen.stock).toBe(variant.v_stock - 2);
    expect(Date.now() - placed).toBeLessThan(1_000);
  });

  it('a password change made through one server ends the session on the other', async () => {
    const login = await call<{ data: { token: string } }>(webA, '/api/account/login', {
      body: { email: 'zakaznik@example.sk', password: 'Heslo123!' },
    });
    expect(login.status).toBe(200);
    const auth = { authorization: `Bearer ${login.body.data.token}` };
    expect((await call(webB, '/api/account/me', { headers: auth })).status).toBe(200);
    const changed = await call(webA, '/api/account/password', {
      body: { currentPassword: 'Heslo123!', newPassword: 'NoveHeslo456!' },
      headers: auth,
    });
    expect(changed.status).toBeLessThan(300);
    expect((await call(webB, '/api/account/me', { headers: auth })).status).toBe(401);
    expect((await call(webA, '/api/account/me', { headers: auth })).status).toBe(401);
  });

  it('the session cookie through nginx: /api answers for it are never cached, the CSRF rule holds, pages stay shared', async () => {
    const login = await call<{ data: { token: string } }>(cluster.url, '/api/account/login', {
      body: { email: 'maria.kovacova@example.sk', password: 'Heslo456!' },
    });
    expect(login.status).toBe(200);
    const value = /^shop_session=([^;]+)/.exec(login.headers.getSetCookie().find((line) => line.startsWith('shop_session=')) ?? '')?.[1];
    expect(value).toBe(login.body.data.token);
    const cookie = `cookie_required=true; shop_session=${value}`;
    for (let i = 0; i < 2; i++) {
      const me = await call<{ data: { email: string } }>(cluster.url, '/api/account/me', { headers: { cookie } });
      expect(me.status).toBe(200);
      expect(me.body.data.email).toBe('maria.kovacova@example.sk');
      expect(me.headers.get('x-edge-cache')).toBeNull();
      expect(me.headers.get('cache-control')).toBe('private, no-store');
    }
    // Behind the proxy the configured public origin passes and another is refused.
    const address = { kind: 'billing', name: 'Mária Kováčová', street: 'Hlavná 1', city: 'Nitra', zip: '949 01', isDefault: false };
    expect(
      (
        await call(cluster.url, '/api/account/addresses', {
          body: address,
          headers: { cookie, origin: cluster.url, 'sec-fetch-site': 'same-origin' },
        })
      ).status,
    ).toBe(201);
    const crossSite = await call<{ error: { code: string } }>(cluster.url, '/api/account/addresses', {
      body: address,
      headers: { cookie, origin: 'https://zly.example' },
    });
    expect(crossSite.status).toBe(403);
    expect(crossSite.body.error.code).toBe('forbidden');
    // A page is kept for everyone; a request that carries the cookie anyway is passed on, and nothing is kept from it.
    const page = `/?edge-session=${Date.now()}`;
    // Each page read whole: nginx keeps a page once it has passed it on entirely.
    const edge = async (headers: Record<string, string>) => {
      const res = await fetch(`${cluster.url}${page}`, { headers });
      await res.arrayBuffer();
      return res.headers.get('x-edge-cache');
    };
    expect(await edge({ cookie })).toBe('BYPASS');
    expect(await edge({})).toBe('MISS');
    expect(await edge({ cookie: 'cookie_required=true' })).toBe('HIT');
  });

  it('100 concurrent orders for the last piece, spread over both servers, give exactly one order', async () => {
    const variant = await inStockVariant();
    await db.query('update variants set v_stock = 1 where v_id = $1', [variant.v_id]);
    const before = await db.query<{ n: string }>('select count(*) as n from order_items where v_id = $1', [variant.v_id]);
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => call(i % 2 === 0 ? webA : webB, '/api/orders', { body: order(variant.v_id, 1) })),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(99);
    const after = await db.query<{ n: string; stock: number }>(
      'select (select count(*) from order_items where v_id = $1) as n, (select v_stock from variants where v_id = $1) as stock',
      [variant.v_id],
    );
    expect(Number(after.rows[0]!.n) - Number(before.rows[0]!.n)).toBe(1);
    expect(after.rows[0]!.stock).toBe(0);
  });

  it('the two workers send every order confirmation exactly once', async () => {
    const variant = await inStockVariant();
    const placed = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call<{ data: { orderNumber: string } }>(i % 2 === 0 ? webA : webB, '/api/orders', { body: order(variant.v_id, 1) }),
      ),
    );
    expect(placed.map((p) => p.status)).toEqual(Array(20).fill(201));
    // Every queued job done (the workers poll every second); on PostgreSQL the jobs are pg-boss's.
    const deadline = Date.now() + 30_000;
    for (;;) {
      const { rows } = await db.query<{ n: string }>("select count(*) as n from pgboss.job where state <> 'completed'");
      if (Number(rows[0]!.n) === 0) break;
      if (Date.now() > deadline) throw new Error(`${rows[0]!.n} outbox jobs still not done`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const { rows: jobs } = await db.query<{ job_key: string }>(
      "select data->>'key' as job_key from pgboss.job where name = 'order-confirmation'",
    );
    // Nothing went to the table the embedded default uses.
    expect((await db.query<{ n: string }>('select count(*) as n from outbox')).rows[0]!.n).toBe('0');
    const messageIds = readdirSync(cluster.mailDir).map(
      (file) => /^Message-ID:\s*(\S+)/im.exec(readFileSync(join(cluster.mailDir, file), 'utf8'))?.[1],
    );
    // Confirmations are tagged objednavka-<number> (domains/ordering/documents/documents.service.ts).
    const confirmations = messageIds.filter((id) => id?.includes('objednavka-'));
    // One message per confirmation job, none twice.
    expect(new Set(confirmations).size).toBe(confirmations.length);
    expect(confirmations.length).toBe(jobs.length);
    expect(jobs.length).toBeGreaterThanOrEqual(22);
  });
});

describe('operator accounts on two servers', () => {
  /** The owner's command against the cluster's database, as the README has it. */
  const credentials = (args: string[], env: Record<string, string> = {}) => {
    const run = spawnSync(process.execPath, ['dist/release/credentials-cli.js', ...args], {
      cwd: join(import.meta.dirname, '..'),
      env: { ...process.env, ...cluster.releaseEnv, DATABASE_URL: cluster.databaseUrl, ...env },
      encoding: 'utf8',
    });
    expect(run.status, run.stderr + run.stdout).toBe(0);
    return run.stdout;
  };
  const [opsA, opsB] = cluster.webOps as [string, string];
  // Each sign-in from an address of its own (nginx's X-Forwarded-For is trusted from loopback), so other tests' failures do not count here.
  let address = 0;
  const signIn = (base: string, name: string, password: string, from = `198.51.100.${++address}`) =>
    call<{ data: { name: string; secondFactor: boolean } }>(base, '/api/ops/session', {
      body: { name, password },
      headers: { 'x-forwarded-for': from, origin: cluster.opsUrl },
    });

  it('the servers starting at once made one first operator, whose password opens a session that can only set up the second factor', async () => {
    const { rows } = await db.query<{ name: string }>('select name from operators order by operator_id');
    expect(rows.filter((row) => row.name === 'spravca')).toHaveLength(1);
    const password = readFileSync(join(cluster.dataDir, 'operator-password'), 'utf8').trim();
    for (const server of [opsA, opsB]) {
      const answer = await signIn(server, 'spravca', password);
      expect(answer.status).toBe(200);
      expect(answer.body.data.secondFactor).toBe(false);
    }
  });

  it('a session opened on one server works on the other, and ends on both the moment the owner revokes the operator', async () => {
    const password = 'heslo-klastrového-operátora';
    credentials(['operator-create', 'klaster'], { OPERATOR_PASSWORD: password });
    // Straight to one server's operator port, naming the operator origin (OPS_URL, nginx's) as a browser there would.
    const { cookie } = await signInWithSecondFactor(opsA, 'klaster', password, {
      'x-forwarded-for': `198.51.100.${++address}`,
      origin: cluster.opsUrl,
    });
    for (const server of [opsA, opsB, cluster.opsUrl])
      expect((await call(server, '/api/ops/releases', { headers: { cookie } })).status).toBe(200);
    // The shop's origin knows nothing of it, on either server or through nginx.
    for (const server of [webA, webB, cluster.url])
      expect((await call(server, '/api/ops/releases', { headers: { cookie } })).status).toBe(404);
    credentials(['operator-revoke', 'klaster']);
    for (const server of [opsA, opsB, cluster.opsUrl])
      expect((await call(server, '/api/ops/releases', { headers: { cookie } })).status).toBe(401);
  });

  it('failed sign-ins from one address on either server count together, and leave the operator signing in from another', async () => {
    const password = 'heslo-hádaného-operátora';
    credentials(['operator-create', 'hadany'], { OPERATOR_PASSWORD: password });
    const attacker = '198.51.100.250';
    for (let i = 0; i < 5; i++) expect((await signIn(i % 2 === 0 ? opsA : opsB, 'hadany', `zle-${i}`, attacker)).status).toBe(401);
    for (const server of [opsA, opsB]) expect((await signIn(server, 'hadany', password, attacker)).status).toBe(429);
    expect((await signIn(opsB, 'hadany', password)).status).toBe(200);
  });
});
