/**
 * Server rendering in the sandbox (server/src/web/ssr/sandbox/): a signed area release whose
 * server build is hostile can do nothing on the server but return HTML. On its page's render it
 * tries to read a server variable and a file in DATA_DIR, write a file, connect to loopback
 * (PostgreSQL's, Redis's and a listener's port), start a process and reach the host's realm: each
 * attempt is blocked (asserted one by one, and nothing was written, nothing connected). A page
 * that loops forever or allocates without bound still answers 200 in bounded time (its CPU share, a
 * quarter of a second; on a machine too busy to give it that, the wall-clock bound) with the page the
 * browser renders (never kept by a cache), its renderer is replaced, and the failure names the
 * part and version in the metric and in GET /api/ops/render-failures. A page's time is CPU time:
 * one whose render waits 0.6 s without using CPU (a busy machine) still renders on the server;
 * one that waits past the wall-clock bound is left to the browser. The renderers end with the
 * server. SQLite, or PostgreSQL with DATABASE_URL.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deploy, generateSigningKey, localDirectoryStorage, readSigningKey, releaseIntegrity } from '@shop/release';
import { renderFailuresReader } from '../../src/domains/ops/console/render-failures.ts';
import { recordRenderFailure } from '../../src/domains/ops/telemetry/render-failures.repository.ts';
import { shellHost } from '../../src/web/shell-host.ts';
import { DEFAULT_RENDER_BUDGET } from '../../src/web/ssr/page-render.ts';
import { startTestApi, type TestApi } from '../helpers/test-api.ts';
import { tempDir } from '@shop/release/testing';
import { hostileAreaBuild, smallShellBuild, type HostileTargets } from '../helpers/hostile-builds.ts';
import { shellHostOptions } from '../helpers/shell-host-options.ts';

const origin = tempDir('render-sandbox-origin-');
const storage = localDirectoryStorage(origin);
const key = generateSigningKey();
const integrity = releaseIntegrity({
  storage,
  keys: async () => [{ keyId: key.keyId, owner: 'shop', area: null, publicKey: key.publicKeyPem }],
});
/** The loopback listener standing for the shop's database and Redis: no connection may reach it. */
let listener: Server;
let connections = 0;
let api: TestApi;
let targets: HostileTargets;
let areaVersion = '';
let rendererPids: () => number[] = () => [];
const SECRET = 'jwt-secret-the-sandbox-must-not-see';

/** Loopback ports of the shop's own PostgreSQL and Redis when the run has them. */
function servicePorts(): number[] {
  const ports: number[] = [];
  for (const url of [process.env.DATABASE_URL, process.env.REDIS_URL]) {
    if (!url) continue;
    const port = Number(new URL(url).port);
    if (port) ports.push(port);
  }
  return ports;
}

beforeAll(async () => {
  process.env.JWT_SECRET ??= SECRET;
  listener = createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const listenerPort = (listener.address() as { port: number }).port;
  api = await startTestApi({
    // The operator origin lists the failures the shop's renders record.
    operatorConsole: ({ db }) => ({ storage, publicUrl: 'https://shop.example', renderFailures: renderFailuresReader(db) }),
    configure: (app, { db, dataDir }) => {
      targets = {
        secretFile: join(dataDir, existsSync(join(dataDir, 'shop.sqlite')) ? 'shop.sqlite' : 'jwt-secret'),
        writeFile: join(dataDir, 'written-by-a-hostile-build'),
        ports: [listenerPort, ...servicePorts()],
        variable: 'JWT_SECRET',
      };
      void app.register(async (scope) => {
        await shellHost(
          scope,
          shellHostOptions({
            storage,
            telemetrySample: 0,
            integrity,
            pageCacheMs: 5000,
            renderers: { count: 2, memoryMb: 64, warm: false },
            onRenderFailure: (failure) =>
              void recordRenderFailure(db, {
                at: new Date(),
                part: failure.part,
                version: failure.version,
                reason: failure.reason,
                path: failure.url.split('?')[0] ?? '/',
                requestId: failure.requestId,
                server: 'test',
                message: failure.message,
              }),
          }),
        );
        const { livePools } = await import('../../src/web/ssr/sandbox/renderer-pool.ts');
        rendererPids = () => livePools().flatMap((pool) => pool.pids());
      });
    },
  });
  const signingKey = readSigningKey(key.privateKeyPem);
  const provenance = { who: 'content-team', reason: 'hostile build under test' };
  areaVersion = (
    await deploy({
      storage,
      part: 'content',
      distDir: hostileAreaBuild(targets),
      packageVersion: '6.6.6',
      provenance,
      init: true,
      signingKey,
    })
  ).version;
  await deploy({ storage, part: 'shell', distDir: smallShellBuild(), packageVersion: '1.0.0', provenance, signingKey });
});
let closed = false;
afterAll(async () => {
  if (!closed) await api?.close();
  await new Promise((resolve) => listener?.close(resolve));
});

const page = (path: string) => fetch(`${api.baseUrl}${path}`, { headers: { accept: 'text/html' } });
/** The page's root as the browser gets it: the server's HTML, or empty when the browser renders the page. */
const rootOf = (html: string) =>
  /<div id="root">([\s\S]*?)<\/div><script type="application\/json" id="shop-server-data"|<div id="root">([\s\S]*?)<\/div>/.exec(html);

describe('a hostile server build in the sandbox', () => {
  it('reaches none of the server: no variable, no file read or written, no connection, no process, no host realm', async () => {
    const response = await page('/hostile/probe');
    expect(response.status).toBe(200);
    const html = await response.text();
    const attempts = Object.fromEntries([...html.matchAll(/<li data-attempt="([^"]+)">([^<]*)<\/li>/g)].map((m) => [m[1], m[2]]));
    expect(Object.keys(attempts).sort()).toEqual(
      [
        'read-variable',
        'list-variables',
        'read-file',
        'read-node-fs',
        'write-file',
        'spawn-process',
        'spawn-through-process',
        'tcp-net',
        'global-fetch',
        'websocket',
        'xhr',
        'host-require',
        'wasi-or-worker',
        'dynamic-import-fs',
        'fetch-loopback',
        'kernel-client',
      ].sort(),
    );
    for (const [name, outcome] of Object.entries(attempts)) expect(outcome, name).toMatch(/^blocked: /);
    expect(html).not.toContain(process.env.JWT_SECRET);
    expect(existsSync(targets.writeFile)).toBe(false);
    expect(connections).toBe(0);
  });

  /** The failures the operator console lists for a page's path. */
  const listed = async (path: string) => {
    const answer = await api.asOperator<{
      data: { failures: { part: string; version: string; reason: string; path: string; requestId: string }[] };
    }>('GET', '/api/ops/render-failures');
    expect(answer.status).toBe(200);
    return answer.body.data.failures.filter((row) => row.path === path);
  };
  /** The failures listed once there are `count` (the server records one after the page has left). */
  const listedWhen = async (path: string, count: number) => {
    await expect.poll(async () => (await listed(path)).length, { timeout: 5000 }).toBe(count);
    return listed(path);
  };

  /**
   * The page answered as the browser renders it: 200 within the render's wall-clock bound and a second
   * (a loop is stopped at its CPU share well before, unless the machine is too busy), the same policy,
   * kept by no cache.
   */
  async function answeredForTheBrowser(path: string, withinMs = DEFAULT_RENDER_BUDGET.wallMs + 1000) {
    const started = Date.now();
    const response = await page(path);
    const html = await response.text();
    expect(Date.now() - started).toBeLessThan(withinMs);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('private, no-cache');
    expect(response.headers.get('etag')).toBeNull();
    expect(response.headers.get('x-page-cache')).toBeNull();
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    // The browser renders it: no server HTML in the root, no server data.
    expect(html).not.toContain('shop-server-data');
    expect(rootOf(html)?.[0]).not.toContain('shell-main');
  }

  for (const [path, reasons] of [
    // Stopped by the renderer's own limit, or by the server's watchdog when the machine is slow to answer.
    ['/hostile/loop', /^(timeout|hang)$/],
    ['/hostile/alloc', /^(memory|timeout|hang|crash)$/],
  ] as const) {
    it(`${path}: answers 200 in bounded time as the page the browser renders, replaces its renderer, and names the part and version`, async () => {
      const pidsBefore = rendererPids();
      await answeredForTheBrowser(path);
      const [failure] = await listedWhen(path, 1);
      expect(failure).toMatchObject({ part: 'content', version: areaVersion });
      expect(failure!.reason).toMatch(reasons);
      expect(failure!.requestId).not.toBe('');
      const metrics = (await api.metrics()).text;
      expect(metrics).toMatch(
        new RegExp(
          `shop_server_render_failures_total\\{part="content",version="${areaVersion.replace(/[.+]/g, '\\$&')}",reason="[a-z]+"\\} [1-9]`,
        ),
      );
      // The renderer that failed is gone, and a new one took its place.
      expect(pidsBefore.filter((pid) => !alive(pid))).toHaveLength(1);
      expect(rendererPids().filter((pid) => !pidsBefore.includes(pid))).toHaveLength(1);
    });
  }

  it('the probe page still renders on the server after the failures (a fresh renderer)', async () => {
    const html = await (await page('/hostile/probe')).text();
    expect(html).toContain('data-attempt="read-file"');
  });

  it('a render that waits 0.6 s without using CPU (a busy machine) still renders on the server; one that waits on is left to the browser within the wall-clock bound', async () => {
    const slow = await page('/hostile/slow');
    expect(slow.status).toBe(200);
    expect(await slow.text()).toContain('<p id="slow-page">Pomalá stránka</p>');
    // A build that blocks without CPU is stopped at the wall-clock bound.
    await answeredForTheBrowser('/hostile/stuck');
    const [failure] = await listedWhen('/hostile/stuck', 1);
    expect(failure!.reason).toMatch(/^(timeout|hang)$/);
  });

  it('a version failing 3 times a minute is left to the browser at once, without a renderer; nothing of a failed page was kept', async () => {
    // Three failures so far (the loop, the allocation, the wait past the bound): the version's pages render in
    // the browser at once. The loop's page again is no cached copy (the page cache kept nothing of it), and a
    // probe's address not asked before is not rendered either.
    for (const path of ['/hostile/loop', '/hostile/probe?again=1']) {
      const started = Date.now();
      await answeredForTheBrowser(path);
      expect(Date.now() - started).toBeLessThan(500);
    }
    expect(await listed('/hostile/loop')).toHaveLength(1);
    expect(await listed('/hostile/probe')).toHaveLength(0);
  });

  it('no renderer outlives the server', async () => {
    const pids = rendererPids();
    expect(pids.length).toBeGreaterThan(0);
    await api.close();
    closed = true;
    for (const pid of pids) expect(alive(pid), `renderer ${pid}`).toBe(false);
  });
});

function alive(pid: number): boolean {
  try {
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');
  } catch {
    return false;
  }
}
