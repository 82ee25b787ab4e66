/**
 * The cluster's processes under kill -9, mid-traffic (as `npm run start:cluster` runs them,
 * tools/scripts/topology.mjs): the supervisor starts a killed web server or worker again on its ports,
 * nginx's /api/ready counts who is ready, shoppers' reads never fail (nginx retries them on the
 * other server), an order sent again with its idempotency key after a failure is placed once, and
 * every confirmation is sent as one message.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { courierOrder } from '../test/helpers/checkout-contact.ts';

const cluster = inject('cluster');
let db: pg.Pool;
beforeAll(() => {
  db = new pg.Pool({ connectionString: cluster.databaseUrl, max: 2 });
});
afterAll(async () => {
  await db?.end();
});

type Process = { name: string; role: string; state: string; pid: number | null; restarts: number; standby: 'ready' | 'starting' | 'none' };
type Readiness = {
  status: number;
  body: {
    data?: { status: string; web: { ready: number; total: number }; workers: { ready: number; total: number }; processes: Process[] };
  };
};

async function readiness(): Promise<Readiness> {
  const res = await fetch(`${cluster.url}/api/ready`);
  return { status: res.status, body: (await res.json()) as Readiness['body'] };
}

const processNamed = async (name: string) => (await readiness()).body.data!.processes.find((p) => p.name === name)!;

/** Kills the process with SIGKILL and answers how long until nginx's /api/ready shows it ready again, as a new process. */
async function killAndTimeBack(name: string): Promise<number> {
  // The standby is started once the shop is up: the steady state has it ready.
  for (let since = Date.now(); ;) {
    const server = await processNamed(name);
    if (server.standby === 'ready') break;
    if (Date.now() - since > 60_000) throw new Error(`${name}'s standby was not ready within 60 s`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const before = await processNamed(name);
  expect(before.state).toBe('ok');
  const killedAt = Date.now();
  process.kill(before.pid!, 'SIGKILL');
  for (;;) {
    const now = await processNamed(name);
    if (now.state === 'ok' && now.pid !== before.pid) {
      expect(now.restarts).toBe(before.restarts + 1);
      return Date.now() - killedAt;
    }
    if (Date.now() - killedAt > 30_000) throw new Error(`${name} was not back within 30 s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Shoppers' reads through nginx, 3 at a time with a short pause after each (a busy shop's pace,
 * not a load test: the two cores are shared with the server starting again), until stopped. `failures`: every answer that is not a
 * 2xx or 3xx, or that never came. `cut`: pages whose head had left the killed server before it
 * died (a page's head is streamed ahead of its data); nginx cannot send such an answer again.
 */
function browse() {
  const paths = ['/api/home', '/api/site', '/api/menu', '/', '/search/tehla', '/api/search?q=omietka'];
  const failures: string[] = [];
  const cut: string[] = [];
  let count = 0;
  let running = true;
  const loops = Array.from({ length: 3 }, async (_, i) => {
    for (let n = i; running; n++) {
      const path = paths[n % paths.length]!;
      count += 1;
      const res = await fetch(`${cluster.url}${path}`).catch((error: Error) => error);
      if (res instanceof Error) {
        failures.push(`${path}: ${res.message}`);
        continue;
      }
      if (res.status >= 400) failures.push(`${res.status} ${path}: ${(await res.text()).slice(0, 200)}`);
      else if (
        !(await res.text().then(
          () => true,
          () => false,
        ))
      )
        cut.push(path);
      await new Promise((r) => setTimeout(r, 10));
    }
  });
  return {
    async stop() {
      running = false;
      await Promise.all(loops);
      return { count, failures, cut };
    },
  };
}

/** An order as the checkout sends it: on a failure it is sent again with the same key until placed. */
async function placeOrder(vId: number): Promise<{ key: string; number: string; attempts: number }> {
  const body = courierOrder(vId, 1);
  for (let attempt = 1; ; attempt++) {
    const res = await fetch(`${cluster.url}/api/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).catch(() => null);
    if (res && (res.status === 201 || res.status === 200)) {
      return {
        key: body.idempotencyKey,
        number: ((await res.json()) as { data: { order: { number: string } } }).data.order.number,
        attempts: attempt,
      };
    }
    // Only the answers of a server that went away are sent again; a refusal is a failure of the test.
    if (res && res.status !== 502 && res.status !== 503) throw new Error(`order refused: ${res.status} ${await res.text()}`);
    if (attempt >= 20) throw new Error('order not placed after 20 attempts');
    await new Promise((r) => setTimeout(r, 100));
  }
}

const toOrder = async () =>
  (
    await db.query<{ v_id: number }>(
      `select v_id from variants where v_availability = 'to_order' and v_weight <= 2000 order by v_id limit 1`,
    )
  ).rows[0]!.v_id;

describe('the cluster under kill -9', () => {
  it('nginx answers /api/ready for the whole cluster: every web server and worker, ready', async () => {
    const { status, body } = await readiness();
    expect(status).toBe(200);
    expect(body.data!.status).toBe('ready');
    expect(body.data!.web).toEqual({ ready: cluster.web.length, total: cluster.web.length });
    expect(body.data!.workers).toEqual({ ready: cluster.workers.length, total: cluster.workers.length });
  });

  it('a web server killed mid-traffic is back within 2 s; no read fails, every order is placed once', { timeout: 120_000 }, async () => {
    const vId = await toOrder();
    const traffic = browse();
    const orders = Promise.all(Array.from({ length: 30 }, (_, i) => new Promise((r) => setTimeout(r, i * 50)).then(() => placeOrder(vId))));
    await new Promise((r) => setTimeout(r, 300));
    const back = await killAndTimeBack('web-1');
    const placed = await orders;
    const { count, failures, cut } = await traffic.stop();
    console.log(
      `web-1 back in ${back} ms; ${count} reads during the kill, ${cut.length} pages cut mid-answer (${cut.join(', ')}); ${placed.filter((p) => p.attempts > 1).length} of 30 orders sent again`,
    );
    expect(failures).toEqual([]);
    // Only pages can be cut, and only those the killed server was sending.
    expect(cut.every((path) => !path.startsWith('/api/'))).toBe(true);
    expect(cut.length).toBeLessThanOrEqual(4);
    expect(back).toBeLessThan(2_000);
    const { rows } = await db.query<{ idempotency_key: string }>('select idempotency_key from orders where idempotency_key = any($1)', [
      placed.map((p) => p.key),
    ]);
    expect(rows).toHaveLength(30);
    expect(new Set(placed.map((p) => p.number)).size).toBe(30);
  });

  it(
    'a worker killed while it sends confirmations is back within 2 s, and every confirmation is sent as one message',
    { timeout: 120_000 },
    async () => {
      const vId = await toOrder();
      const placed = await Promise.all(Array.from({ length: 20 }, () => placeOrder(vId)));
      const back = await killAndTimeBack('worker-2');
      console.log(`worker-2 back in ${back} ms`);
      expect(back).toBeLessThan(2_000);
      // Every job done: one the killed worker held is taken again when its lease ends.
      const deadline = Date.now() + 90_000;
      for (;;) {
        const { rows } = await db.query<{ n: string }>("select count(*) as n from pgboss.job where state not in ('completed')");
        if (Number(rows[0]!.n) === 0) break;
        if (Date.now() > deadline) throw new Error(`${rows[0]!.n} outbox jobs still not done`);
        await new Promise((r) => setTimeout(r, 200));
      }
      const messages = readdirSync(cluster.mailDir).map((file) => readFileSync(join(cluster.mailDir, file), 'utf8'));
      for (const { number } of placed) {
        // A message sent again after the crash carries the same Message-ID: one message, not two.
        const ids = new Set(messages.filter((m) => m.includes(`objednavka-${number}`)).map((m) => /^Message-ID:\s*(\S+)/im.exec(m)?.[1]));
        expect(ids.size, `confirmations of ${number}`).toBe(1);
      }
    },
  );
});
