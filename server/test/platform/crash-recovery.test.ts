/**
 * The real server under the real supervisor (tools/scripts/supervise.mjs), as `npm start` runs it:
 * orders are placed in a burst, the server is killed with SIGKILL in the middle of it, the
 * supervisor restarts it, the shoppers' clients retry what got no answer with the same
 * idempotency key, and in the end every order exists exactly once and has exactly one
 * confirmation e-mail (sent before the crash, or queued and sent after the restart).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlaceOrderBody } from '@shop/shared-kernel/contract';
import { startGatewaySimulator, type GatewaySimulator } from '@shop/gateway-simulator';
import { openDatabase, type OpenedDatabase } from '../../src/db/connect.ts';
import { DEFAULT_OUTBOX, jobStoreFor } from '../../src/infra/outbox/outbox.ts';
import { courierOrder } from '../helpers/checkout-contact.ts';
import { throwawayPostgres } from '../helpers/throwaway-database.ts';
// Ports below the ephemeral range: the restarted server must find its port still free.
import { freePort } from '../../../tools/scripts/topology.mjs';

const apiDir = join(import.meta.dirname, '..', '..');
const supervisorScript = join(apiDir, '..', 'tools', 'scripts', 'supervise.mjs');
const ORDERS = 60;
const CONCURRENCY = 10;
const KILL_AFTER = 20;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Supervised = { child: ChildProcess; log: string[]; pids: number[]; exited: Promise<number | null> };

function startSupervised(env: NodeJS.ProcessEnv, args: string[]): Supervised {
  const child = spawn(process.execPath, [supervisorScript, '--', ...args], { cwd: apiDir, env, stdio: ['ignore', 'ignore', 'pipe'] });
  const log: string[] = [];
  const pids: number[] = [];
  // Whole lines: a pipe's chunk may end in the middle of one.
  createInterface({ input: child.stderr! }).on('line', (line) => {
    if (!line) return;
    log.push(line);
    const started = /\[supervisor\] (\S+) started server \(pid (\d+)\)/.exec(line);
    if (started) pids.push(Number(started[2]));
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, log, pids, exited };
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 60_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

describe('a server killed with SIGKILL in the middle of an order burst', () => {
  let dataDir: string;
  let postgres: Awaited<ReturnType<typeof throwawayPostgres>>;
  let database: OpenedDatabase | null = null;
  let supervised: Supervised | null = null;
  let gateway: GatewaySimulator | null = null;

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'shop-crash-'));
  });
  afterAll(async () => {
    if (supervised && supervised.child.exitCode === null) supervised.child.kill('SIGKILL');
    for (const pid of supervised?.pids ?? []) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    await database?.close();
    await postgres?.drop();
    await gateway?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(
    'is restarted by the supervisor, loses no order, doubles none, and sends every confirmation exactly once',
    { timeout: 180_000 },
    async () => {
      postgres = await throwawayPostgres();
      const [port, assetPort] = [await freePort(), await freePort()];
      // The card gateway, as `npm start` starts it beside the server (the server never starts it).
      const gatewaySecret = 'crash-recovery-gateway-secret';
      gateway = await startGatewaySimulator({ secret: gatewaySecret });
      const base = `http://127.0.0.1:${port}`;
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        PORT: String(port),
        ASSET_PORT: String(assetPort),
        GATEWAY_URL: gateway.url,
        GATEWAY_SECRET: gatewaySecret,
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        DATABASE_URL: postgres?.url ?? '',
        LOG_LEVEL: 'warn',
        // The burst comes from loopback: the per-address order limit would stop it (as it should a real client).
        CHECKOUT_RATE_LIMIT_ALLOWLIST: '127.0.0.1,::1,::ffff:127.0.0.1',
      };
      supervised = startSupervised(env, [process.execPath, '--import', 'tsx', 'src/server.ts']);
      await waitFor('the server to answer /api/health', async () => (await fetch(`${base}/api/health`)).ok);

      database = await openDatabase(postgres ? { url: postgres.url } : { sqliteFile: join(dataDir, 'shop.sqlite') });
      const variant = await database.db
        .selectFrom('variants')
        .select('v_id')
        .where('v_availability', '=', 'to_order')
        .where('v_weight', '<=', 2_000)
        .orderBy('v_id')
        .executeTakeFirstOrThrow();

      const bodies: PlaceOrderBody[] = Array.from({ length: ORDERS }, () => courierOrder(variant.v_id));
      const numbers = new Map<string, string>();
      let answered = 0;
      let lostAnswers = 0;
      let killedAt = 0;
      let inFlightAtKill = 0;
      let inFlight = 0;
      const firstPid = supervised.pids[0]!;

      /** A shopper's client: retries a request that got no answer with the same idempotency key. */
      const place = async (body: PlaceOrderBody) => {
        for (let attempt = 0; attempt < 200; attempt++) {
          inFlight += 1;
          try {
            const res = await fetch(`${base}/api/orders`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify(body),
            });
            const json = (await res.json()) as { data?: { order: { number: string } } };
            if (res.status === 201 || res.status === 200) {
              numbers.set(body.idempotencyKey, json.data!.order.number);
              answered += 1;
              if (answered === KILL_AFTER && !killedAt) {
                inFlightAtKill = inFlight - 1;
                killedAt = Date.now();
                process.kill(firstPid, 'SIGKILL');
              }
              return;
            }
            throw new Error(`unexpected ${res.status}`);
          } catch {
            lostAnswers += 1;
            await sleep(100);
          } finally {
            inFlight -= 1;
          }
        }
        throw new Error(`order ${body.idempotencyKey} was never accepted`);
      };
      const queue = [...bodies];
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          for (let body = queue.shift(); body; body = queue.shift()) await place(body);
        }),
      );

      // The supervisor restarted the server within 2 s of its death, and said why.
      expect(killedAt).toBeGreaterThan(0);
      expect(inFlightAtKill).toBeGreaterThan(0);
      expect(lostAnswers).toBeGreaterThan(0);
      expect(supervised.pids.length).toBe(2);
      const restartLine = supervised.log.find((l) => /was killed by SIGKILL; restarting/.test(l));
      expect(restartLine).toBeDefined();
      const restartedAt = Date.parse(
        /\[supervisor\] (\S+) started server/.exec(supervised.log.filter((l) => l.includes('started server'))[1]!)![1]!,
      );
      expect(restartedAt - killedAt).toBeLessThan(2000);

      // Every order exactly once.
      expect(numbers.size).toBe(ORDERS);
      expect(new Set(numbers.values()).size).toBe(ORDERS);
      const stored = await database.db.selectFrom('orders').select(['order_number', 'idempotency_key']).execute();
      expect(stored).toHaveLength(ORDERS);
      expect(new Map(stored.map((o) => [o.idempotency_key, o.order_number]))).toEqual(numbers);

      // Every confirmation exactly once: the outbox drains after the restart, and a retried send replaces its own file.
      const outboxDir = join(dataDir, 'outbox');
      const mailsOf = () => readdirSync(outboxDir).filter((f) => f.endsWith('.eml'));
      await waitFor('every confirmation to be sent', async () => mailsOf().length >= ORDERS);
      await waitFor('the outbox to be empty', async () => {
        const left = await jobStoreFor(database!.db, DEFAULT_OUTBOX).backlog();
        return left.pending === 0 && left.dead === 0;
      });
      const files = mailsOf();
      for (const number of numbers.values()) {
        const own = files.filter((f) => f.startsWith(`objednavka-${number}-`));
        expect(own, number).toHaveLength(1);
        expect(readFileSync(join(outboxDir, own[0]!), 'utf8')).toMatch(/^Message-ID: <objednavka-\d+\.\w+@example\.sk>$/m);
      }
      expect(files).toHaveLength(ORDERS);
      console.log(
        `crash test: ${ORDERS} orders, killed after ${KILL_AFTER} with ${inFlightAtKill} in flight, ${lostAnswers} answers lost and retried, restarted in ${restartedAt - killedAt} ms, ${files.length} confirmations`,
      );

      // A stop is graceful: the supervisor ends with the server.
      supervised.child.kill('SIGTERM');
      expect(await supervised.exited).toBe(0);
    },
  );
});

describe('the supervisor', () => {
  it('gives up with a clear message when the server keeps dying', { timeout: 30_000 }, async () => {
    const env = { ...process.env, SUPERVISE_RESTART_DELAY_MS: '50', SUPERVISE_MAX_CRASHES: '3', SUPERVISE_WINDOW_MS: '10000' };
    const supervised = startSupervised(env, [process.execPath, '-e', 'process.exit(3)']);
    expect(await supervised.exited).toBe(1);
    expect(supervised.pids).toHaveLength(3);
    expect(supervised.log.filter((l) => l.includes('exited with code 3; restarting'))).toHaveLength(2);
    expect(supervised.log.at(-1)).toMatch(/died 3 times within 10 s, giving up/);
  });
});
