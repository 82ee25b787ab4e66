/**
 * The public pages through the cluster's nginx, and a new catalog release with the release command,
 * as the edge-cache and release tests use them.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect, inject } from 'vitest';
import { PAGE_CACHE_MS } from '../../src/web/shell-host.ts';

const cluster = inject('cluster');
/** A change is seen through nginx within s-maxage + stale-while-revalidate (each the page cache's time). */
export const BOUND_MS = 2 * PAGE_CACHE_MS;
/**
 * Beyond the bound: the servers learning of the change, and the one render that fetches the new page
 * (for a release: its files fetched from the origin, an S3 bucket in one pass, and checked against
 * their signed manifest first), on a machine whose two cores also run the browser tests.
 */
export const SEEN_BY_SERVERS_MS = 10_000;

export type Page = {
  status: number;
  edge: string | null;
  cacheControl: string | null;
  etag: string | null;
  setCookie: string[];
  html: string;
};
export async function page(path: string, headers: Record<string, string> = {}): Promise<Page> {
  const res = await fetch(`${cluster.url}${path}`, { headers, redirect: 'manual' });
  return {
    status: res.status,
    edge: res.headers.get('x-edge-cache'),
    cacheControl: res.headers.get('cache-control'),
    etag: res.headers.get('etag'),
    setCookie: res.headers.getSetCookie(),
    html: await res.text(),
  };
}

/** The registry revision a page was rendered with (its embedded configuration). */
export const revisionOf = (html: string) => /"registry":\{"revision":"([^"]+)"/.exec(html)?.[1];

/** Asks for `path` until `seen(page)` holds or the deadline passes; answers the page and when it was first seen. */
export async function pollUntil(path: string, seen: (p: Page) => boolean, deadlineMs: number): Promise<{ last: Page; at: number }> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const last = await page(path);
    if (seen(last) || Date.now() > deadline) return { last, at: Date.now() };
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The release command against the cluster's origin, as a team runs it. */
export function release(args: string[]): string {
  const run = spawnSync(process.execPath, ['dist/release/cli.js', ...args], {
    cwd: join(import.meta.dirname, '..', '..'),
    env: { ...process.env, ...cluster.releaseEnv },
    encoding: 'utf8',
  });
  expect(run.status, run.stderr + run.stdout).toBe(0);
  return run.stdout + run.stderr;
}

/** A new build of the catalog area (a copy of its dist with one byte changed), in the data directory. */
export function nextCatalogBuild(name: string): string {
  const dir = join(cluster.dataDir, name);
  rmSync(dir, { recursive: true, force: true });
  cpSync(join(import.meta.dirname, '..', '..', '..', 'mf-catalog', 'dist'), dir, { recursive: true });
  appendFileSync(join(dir, 'remoteEntry.js'), `\n/* ${name} */\n`);
  return dir;
}

/** The registry revision in force, as browsers read it. */
export async function currentRevision(): Promise<string> {
  const res = await fetch(`${cluster.url}/builds/latest.json`);
  return ((await res.json()) as { revision: string }).revision;
}
