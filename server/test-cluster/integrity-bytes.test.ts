/**
 * Tamper checks on the bytes at scale (global-setup.mjs: nginx, two web servers, two workers with
 * the integrity watch; the origin on disk, or with CLUSTER_ORIGIN=s3 in a bucket with each server's
 * copy of a version on its disk): a released file changed in place with its size and modification
 * time kept is refused through nginx at once, found by the workers' next check, and sent again once
 * put back with `cp -p`; a copy changed only in the CDN's cache (nginx's) is found by reading back
 * what browsers are sent; no other spelling of a released file's path gets past nginx and the
 * servers. The workers check on their schedule and whenever the registry moves: a test moves it
 * (a pin and an unpin of an area no test releases) rather than wait out the interval.
 */
import { spawnSync } from 'node:child_process';
import { openSync, closeSync, readdirSync, readFileSync, readSync, statSync, utimesSync, writeSync, copyFileSync, rmSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { readRegistry, storageFromEnv, type ReleaseStorage } from '@shop/release';
import { nonCanonical, rawGet } from '../test/helpers/path-spellings.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** nginx's port for the areas (the cluster's CDN, ASSET_ORIGIN) and its directory (its caches). */
    clusterEdge: { assetUrl: string; nginxDir: string };
  }
}

const cluster = inject('cluster');
const edge = inject('clusterEdge');
const onS3 = process.env.CLUSTER_ORIGIN === 's3';
/** How long the workers may take to notice a registry move (every 2 s) and finish the check it starts, and the read-back after it. */
const CHECK_MS = 45_000;
/** A verdict is kept by a server only once a file's last change is this old (server/src/web/verified-files.ts), and a little more. */
const SETTLED_MS = 2_100;
/** A test waits for up to two checks. */
const TWO_CHECKS_MS = 2 * CHECK_MS + 30_000;

let db: pg.Pool;
let storage: ReleaseStorage;
const scratch = mkdtempSync(join(tmpdir(), 'cluster-bytes-'));
beforeAll(() => {
  db = new pg.Pool({ connectionString: cluster.databaseUrl, max: 2 });
  // The bucket's credentials as the SDK's default chain reads them (the servers get the same).
  for (const [name, value] of Object.entries(cluster.releaseEnv)) vi.stubEnv(name, value);
  storage = storageFromEnv({ ...cluster.releaseEnv }, join(cluster.dataDir, 'origin'));
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await db?.end();
  rmSync(scratch, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const liveCheckout = async () => (await readRegistry(storage)).areas.checkout!.version;

type FindingRow = { subject: string; kind: string; actual: string | null };
async function findingsOf(version: string): Promise<FindingRow[]> {
  const { rows } = await db.query<FindingRow>(
    `select subject, kind, actual from release_integrity_findings where part = 'checkout' and version = $1`,
    [version],
  );
  return rows;
}
/** Waits until what `found` looks for is recorded (by the check a registry move starts, or the read-back after it). */
async function expectFinding(version: string, found: (row: FindingRow) => boolean): Promise<void> {
  await expect.poll(async () => (await findingsOf(version)).some(found), { timeout: CHECK_MS, interval: 500 }).toBe(true);
}
async function lastCheck(): Promise<{ at: number; revision: string | null }> {
  const { rows } = await db.query<{ checked_at: string; revision: string | null }>(
    `select checked_at, revision from release_integrity_checks where name = 'files'`,
  );
  return { at: rows[0] ? Date.parse(rows[0].checked_at) : 0, revision: rows[0]?.revision ?? null };
}
/** The release command with the cluster's settings. */
function release(args: string[]) {
  const run = spawnSync(process.execPath, ['dist/release/cli.js', ...args], {
    cwd: join(import.meta.dirname, '..'),
    env: { ...process.env, ...cluster.releaseEnv },
    encoding: 'utf8',
  });
  expect(run.status, run.stderr).toBe(0);
}
/**
 * The workers' next check, now: the registry moves (the content area pinned and unpinned, which no
 * other test releases), each worker notices and checks everything; resolves once a check that began
 * with the new revision has finished.
 */
async function nextCheck(): Promise<void> {
  release(['pin', 'content', '--reason', 'cluster test: integrity check']);
  release(['unpin', 'content', '--reason', 'cluster test: integrity check']);
  const revision = (await readRegistry(storage)).revision;
  await expect.poll(async () => (await lastCheck()).revision, { timeout: CHECK_MS, interval: 500 }).toBe(revision);
}
async function counted(kind: string): Promise<number> {
  const metrics = await (
    await fetch(`${cluster.url}/api/metrics`, { headers: { authorization: `Bearer ${cluster.metricsToken}` } })
  ).text();
  return Number(
    new RegExp(`^shop_release_integrity_findings_total\\{part="checkout",kind="${kind}"\\} (\\d+)$`, 'm').exec(metrics)?.[1] ?? 0,
  );
}

/** Sets a file's times to a whole second, so that `utimes` can set them back exactly. */
function wholeSecondTimes(path: string) {
  const seconds = Math.floor(statSync(path).mtimeMs / 1000);
  utimesSync(path, seconds, seconds);
}
/** `cp -p`. */
function copyKeepingTime(from: string, to: string) {
  const info = statSync(from);
  copyFileSync(from, to);
  utimesSync(to, info.atime, info.mtime);
}
/** Changes one letter of a word in the middle of the file, in place (same size, same inode), and sets its times back. */
function tamperKeepingMetadata(path: string) {
  const before = statSync(path);
  const bytes = readFileSync(path);
  let at = Math.floor(bytes.length / 2);
  while (!/[a-z]/.test(String.fromCharCode(bytes[at]!))) at += 1;
  bytes[at] = bytes[at] === 0x7a ? 0x79 : bytes[at]! + 1;
  const file = openSync(path, 'r+');
  try {
    writeSync(file, bytes, at, 1, at);
  } finally {
    closeSync(file);
  }
  utimesSync(path, before.atime, before.mtime);
  const after = statSync(path);
  expect([after.size, after.mtimeMs, after.ino]).toEqual([before.size, before.mtimeMs, before.ino]);
}

/** Through nginx, as browsers and the watch ask: each request may reach either web server. */
const throughEdge = (path: string, encoding = 'identity') => rawGet(edge.assetUrl, path, { 'accept-encoding': encoding });

/** An operator's unpin from the command (a fallback pins the part), so the files after this one release as usual. */
async function unpinCheckout() {
  if ((await readRegistry(storage)).pins?.checkout) release(['unpin', 'checkout', '--reason', 'cluster test: origin checked']);
}

describe(`a released file ${onS3 ? "in the servers' copies of the bucket's version" : 'on the origin'}`, () => {
  it(
    'changed in place with its size and time kept is refused through nginx at once, found by the next check, and sent again once put back with cp -p',
    async () => {
      const version = await liveCheckout();
      const url = `/remotes/checkout/${version}/remoteEntry.js`;
      const intact = await throughEdge(url);
      expect(intact.status).toBe(200);
      // The file each server sends (on S3: its copy of the version on its disk).
      const path = storage.localPath(`remotes/checkout/${version}/remoteEntry.js`);
      wholeSecondTimes(path);
      await sleep(SETTLED_MS);
      // Both servers hash it now and keep their verdicts: the tampering comes after.
      for (let index = 0; index < 4; index += 1) expect((await throughEdge(url)).status).toBe(200);
      const backup = join(scratch, 'remoteEntry.js');
      copyKeepingTime(path, backup);
      tamperKeepingMetadata(path);
      try {
        for (let index = 0; index < 4; index += 1) {
          const refused = await throughEdge(url);
          expect(refused.status).toBe(404);
          expect(JSON.parse(refused.body)).toEqual({ error: { code: 'not_found', message: 'Súbor sa nezhoduje s podpísaným vydaním.' } });
        }
        const kind = onS3 ? 'cache' : 'file';
        await nextCheck();
        await expectFinding(version, (row) => row.subject === 'remoteEntry.js' && row.kind === kind);
        expect(await counted(kind)).toBeGreaterThanOrEqual(1);
      } finally {
        copyKeepingTime(backup, path);
      }
      expect(statSync(path).mtimeMs).toBe(statSync(backup).mtimeMs);
      await nextCheck();
      for (let index = 0; index < 4; index += 1) {
        const sent = await throughEdge(url);
        expect(sent.status).toBe(200);
        expect(sent.body).toBe(intact.body);
      }
      await unpinCheckout();
    },
    TWO_CHECKS_MS,
  );
});

describe.runIf(onS3)("a bucket object changed to the same size, the servers' copies intact", () => {
  it(
    'is found by the next check, which reads the bucket, while the servers keep sending their intact copies',
    async () => {
      const version = await liveCheckout();
      const key = `remotes/checkout/${version}/area.json`;
      const original = (await storage.readBytes(key))!;
      const changed = Buffer.from(original.toString('utf8').replace('"checkout"', '"checkouX"'));
      expect(changed.length).toBe(original.length);
      expect((await throughEdge(`/${key}`)).status).toBe(200);
      await storage.writeTextAtomic(key, changed.toString('utf8'));
      try {
        await nextCheck();
        await expectFinding(version, (row) => row.subject === 'area.json' && row.kind === 'file');
        expect((await throughEdge(`/${key}`)).body).toBe(original.toString('utf8'));
      } finally {
        await storage.writeTextAtomic(key, original.toString('utf8'));
      }
      await unpinCheckout();
    },
    TWO_CHECKS_MS,
  );
});

/** The cache file of nginx holding the answer to `url` sent without Content-Encoding, and where its body starts. */
function edgeCopy(url: string): { path: string; bodyAt: number } | null {
  const root = join(edge.nginxDir, 'cache-areas');
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    const bytes = readFileSync(path);
    const keyAt = bytes.indexOf(`\nKEY: ${url}\n`);
    if (keyAt < 0) continue;
    const headersEnd = bytes.indexOf('\r\n\r\n', keyAt);
    if (headersEnd < 0 || /\r\ncontent-encoding:/i.test(bytes.subarray(keyAt, headersEnd).toString('latin1'))) continue;
    return { path, bodyAt: headersEnd + 4 };
  }
  return null;
}

describe('a copy only the CDN serves, changed in its cache', () => {
  it(
    "is found by reading back what browsers are sent, though the origin's file is intact",
    async () => {
      const version = await liveCheckout();
      const manifest = JSON.parse((await throughEdge(`/remotes/checkout/${version}/mf-manifest.json`)).body) as {
        exposes: { name: string; assets: { js: { sync: string[] } } }[];
      };
      const file = manifest.exposes
        .find((expose) => expose.name === 'CartPage')!
        .assets.js.sync.find((name) => name.startsWith('assets/'))!;
      const url = `/remotes/checkout/${version}/${file}`;
      const intact = await throughEdge(url);
      expect(intact.status).toBe(200);
      await expect.poll(async () => (await throughEdge(url)).headers['x-edge-cache']).toBe('HIT');
      const copy = edgeCopy(url);
      expect(copy).not.toBeNull();
      // One byte of the body nginx keeps, changed in place.
      const at = copy!.bodyAt + Math.floor((statSync(copy!.path).size - copy!.bodyAt) / 2);
      const handle = openSync(copy!.path, 'r+');
      const byte = Buffer.alloc(1);
      try {
        readSync(handle, byte, 0, 1, at);
        writeSync(handle, Buffer.from([byte[0]! ^ 0x01]), 0, 1, at);
        const served = await throughEdge(url);
        expect(served.headers['x-edge-cache']).toBe('HIT');
        expect(served.body).not.toBe(intact.body);
        await nextCheck();
        await expectFinding(version, (row) => row.subject === file && row.kind === 'cdn');
        expect(await counted('cdn')).toBeGreaterThanOrEqual(1);
      } finally {
        writeSync(handle, byte, 0, 1, at);
        closeSync(handle);
      }
      expect((await storage.readBytes(`remotes/checkout/${version}/${file}`))!.toString()).toBe(intact.body);
      await unpinCheckout();
    },
    TWO_CHECKS_MS,
  );
});

describe('another spelling of a released file’s path', () => {
  it('gets no file past nginx: 404 (or nginx’s own 400) in the error shape, on the areas’ port and the shop’s', async () => {
    const version = await liveCheckout();
    const shell = (await readRegistry(storage)).shell!.version;
    const entry = await throughEdge(`/remotes/checkout/${version}/remoteEntry.js`);
    expect(entry.status).toBe(200);
    for (const base of [edge.assetUrl, cluster.url]) {
      for (const path of nonCanonical(version, shell)) {
        const answer = await rawGet(base, path, { 'accept-encoding': 'identity' });
        const where = `${base}${path}`;
        expect([400, 404], where).toContain(answer.status);
        if (base === edge.assetUrl || /^\/(remotes|shells)([/\\]|$)/i.test(path)) {
          const body = JSON.parse(answer.body) as { error: { code: string; message: string } };
          expect(['not_found', 'bad_request'], where).toContain(body.error.code);
          expect(body.error.message.length, where).toBeGreaterThan(0);
        }
        expect(answer.body, where).not.toContain(entry.body);
      }
    }
  });
});
