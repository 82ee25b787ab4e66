/**
 * The server-render sandbox on the cluster (two web servers behind nginx, PostgreSQL, Redis; the
 * origin on disk or in S3): a content release made with the release command whose server build is
 * hostile. Its blog page tries to read the servers' secrets and files, write a file, reach
 * PostgreSQL and a loopback listener, start a process: each attempt is blocked. Its static pages
 * loop forever and its contact page allocates without bound: each still answers 200 in bounded time
 * through nginx, as the page the browser renders, kept by no cache, and every server's operator
 * origin lists the failure with the part and version. The content area is released as it was afterwards.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { hostileOverride, type HostileTargets } from '../test/helpers/hostile-builds.ts';
import { DEFAULT_RENDER_BUDGET } from '../src/web/ssr/page-render.ts';
import { changedFrom } from './helpers/changed-from.ts';
import { signInWithSecondFactor } from '../test/helpers/operator-session.ts';

const cluster = inject('cluster');
const repo = join(import.meta.dirname, '..', '..');
let listener: Server;
let connections = 0;
let targets: HostileTargets;
let version = '';
let cookie = '';

function command(script: string, args: string[], env: Record<string, string> = {}) {
  const run = spawnSync(process.execPath, [script, ...args], {
    cwd: join(import.meta.dirname, '..'),
    env: { ...process.env, ...cluster.releaseEnv, DATABASE_URL: cluster.databaseUrl, ...env },
    encoding: 'utf8',
  });
  expect(run.status, run.stderr + run.stdout).toBe(0);
  return run.stdout;
}

beforeAll(async () => {
  listener = createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  targets = {
    secretFile: join(cluster.dataDir, 'jwt-secret'),
    writeFile: join(cluster.dataDir, 'written-by-a-hostile-build'),
    ports: [(listener.address() as { port: number }).port, Number(new URL(cluster.databaseUrl).port)],
    variable: 'DATABASE_URL',
  };
  const dist = join(cluster.dataDir, 'content-hostile');
  cpSync(join(repo, 'mf-content', 'dist'), dist, { recursive: true });
  appendFileSync(
    join(dist, 'server', 'entry.cjs'),
    hostileOverride(targets, { './BlogPage': 'ProbePage', './StaticPage': 'LoopPage', './ContactPage': 'AllocPage' }),
  );
  const contentInForce = async () =>
    (JSON.parse(await (await fetch(`${cluster.url}/builds/latest.json`)).text()) as { areas: { content: { version: string } } }).areas
      .content.version;
  const before = await contentInForce();
  command('dist/release/cli.js', ['deploy', 'content', '--dist', dist, '--no-build', '--reason', 'render sandbox test']);
  version = await changedFrom(before, contentInForce);
  expect(version).not.toBe(before);
  // An operator of its own, signed in with a second factor on the operator origin through nginx.
  const password = 'heslo-operátora-sandboxu';
  command('dist/release/credentials-cli.js', ['operator-create', 'sandbox'], { OPERATOR_PASSWORD: password });
  ({ cookie } = await signInWithSecondFactor(cluster.opsUrl, 'sandbox', password, { 'x-forwarded-for': '203.0.113.251' }));
});
afterAll(async () => {
  command('dist/release/cli.js', ['deploy', 'content', '--dist', join(repo, 'mf-content', 'dist'), '--no-build', '--override-pin']);
  await new Promise((resolve) => listener?.close(resolve));
});

const page = (base: string, path: string) => fetch(`${base}${path}`, { headers: { accept: 'text/html', 'accept-encoding': 'identity' } });

describe('a hostile server build on the cluster', () => {
  it('reaches nothing of the servers: no variable, file, connection or process, on either server', async () => {
    for (const base of cluster.web) {
      const response = await page(base, '/blog');
      expect(response.status).toBe(200);
      const html = await response.text();
      const attempts = [...html.matchAll(/<li data-attempt="([^"]+)">([^<]*)<\/li>/g)].map((m) => [m[1], m[2]] as const);
      expect(attempts.length, html.slice(html.indexOf('<div id="root">'), html.indexOf('<div id="root">') + 500)).toBeGreaterThanOrEqual(
        16,
      );
      for (const [name, outcome] of attempts) expect(outcome, `${base} ${name}`).toMatch(/^blocked: /);
      expect(html).not.toContain(cluster.databaseUrl);
    }
    expect(existsSync(targets.writeFile)).toBe(false);
    expect(connections).toBe(0);
  });

  for (const [path, kind] of [
    ['/s/obchodne-podmienky', 'loop'],
    ['/s/kontakt', 'alloc'],
  ] as const) {
    it(`a page whose build ${kind === 'loop' ? 'loops forever' : 'allocates without bound'} answers 200 in bounded time through nginx, the browser's to render, and the console names it`, async () => {
      const started = Date.now();
      const response = await page(cluster.url, path);
      const html = await response.text();
      // Its CPU share stops it well before, unless the machine is too busy: then the wall-clock bound does.
      expect(Date.now() - started).toBeLessThan(DEFAULT_RENDER_BUDGET.wallMs + 1000);
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('private, no-cache');
      expect(html).not.toContain('shop-server-data');
      // Not kept at the edge: asked again, nginx does not answer it from its cache.
      const again = await page(cluster.url, path);
      expect(again.headers.get('x-edge-cache') ?? 'MISS').not.toMatch(/HIT|STALE/);
      // Every server lists it (the one that rendered records it just after the page has left).
      for (const base of cluster.webOps) {
        const listed = async () => {
          const answer = (await (await fetch(`${base}/api/ops/render-failures`, { headers: { cookie } })).json()) as {
            data: { failures: { part: string; version: string; path: string; reason: string }[] };
          };
          return answer.data.failures.find((row) => row.path === path) ?? null;
        };
        await expect.poll(listed, { timeout: 5000 }).toMatchObject({ part: 'content', version });
      }
    });
  }
});
