/**
 * Tamper checks on a released file's bytes, as someone who can write the origin would try them: a
 * file changed in place with its size and modification time kept, a repaired one put back with its
 * old time (`cp -p`), a file the watch found changed while the origin's kept verdict says intact,
 * another spelling of a released file's path, a bucket object changed with its ETag, size and time
 * kept. The origin sends none of it, and the integrity watch finds each on its next check: recorded
 * and counted. On the local directory and on S3 (s3rver, the server's copy of a version on its
 * disk); its subject is HTTP and files, so the PostgreSQL pass leaves it out (vitest.config.ts).
 */
import { copyFileSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildStaticOrigin } from '../../src/web/static-origin.ts';
import { nonCanonical, rawGet } from '../helpers/path-spellings.ts';
import { releasedOrigins } from '../helpers/released-origins.ts';
import type { S3TestServer } from '@shop/release/testing';

/** The origin's own kept verdicts wait this long after a file's last change (verified-files.ts), and a little more. */
const SETTLED_MS = 2_100;

const bytes = releasedOrigins(['local', 's3']);
const { scratch, quiet, origins, servedFile, get, findings, counted } = bytes;
let s3: S3TestServer;

beforeAll(async () => {
  s3 = (await bytes.start()).s3!;
});
afterAll(bytes.stop);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Waits until the file's last change is old enough for the origin to keep its verdict. */
async function settled(path: string) {
  await sleep(Math.max(0, statSync(path).ctimeMs + SETTLED_MS - Date.now()));
}

/** Changes one word of a file in place (same length, same inode) and sets its times back: its size and modification time are as before. */
function tamperKeepingMetadata(path: string, from: string, to: string) {
  expect(to.length).toBe(from.length);
  const before = statSync(path);
  const text = readFileSync(path, 'utf8');
  expect(text).toContain(from);
  writeFileSync(path, text.replace(from, to));
  utimesSync(path, before.atime, before.mtime);
  const after = statSync(path);
  expect([after.size, after.mtimeMs, after.ino]).toEqual([before.size, before.mtimeMs, before.ino]);
}

/**
 * Sets a file's times to a whole second, as a release could have left them: set back later with
 * `utimes`, they are then exactly what they were (a `Date` carries no more than milliseconds).
 */
function wholeSecondTimes(path: string) {
  const seconds = Math.floor(statSync(path).mtimeMs / 1000);
  utimesSync(path, seconds, seconds);
}

/** `cp -p`: a copy with the source's modification time, kept aside for the repair. */
function copyKeepingTime(from: string, to: string) {
  const info = statSync(from);
  copyFileSync(from, to);
  utimesSync(to, info.atime, info.mtime);
}

describe.each(['local', 's3'] as const)('a released file on the %s origin', (name) => {
  it('changed in place with its size and modification time kept is refused at once and found by the next check; put back with its old time (cp -p), it is sent again', async () => {
    const origin = origins[name]!;
    const entry = 'remoteEntry.js';
    expect((await get(origin, entry)).statusCode).toBe(200);
    const path = servedFile(origin, entry);
    wholeSecondTimes(path);
    // The origin has hashed the file and keeps its verdict: an origin writer tampers after that.
    await settled(path);
    const intact = await get(origin, entry);
    expect(intact.statusCode).toBe(200);
    const backup = join(scratch, `${name}-${entry}`);
    copyKeepingTime(path, backup);
    tamperKeepingMetadata(path, '"checkout"', '"evil-co"!');
    try {
      // Refused from the next request on: within one check interval, and before any check.
      const refused = await get(origin, entry);
      expect(refused.statusCode).toBe(404);
      expect(refused.json()).toEqual({ error: { code: 'not_found', message: 'Súbor sa nezhoduje s podpísaným vydaním.' } });
      expect(refused.body).not.toContain('evil');

      // The watch's next check reads every byte: found, recorded and counted, whatever the file's metadata says.
      const kind = name === 'local' ? 'file' : 'cache';
      const before = await counted(kind);
      await origin.watch.checkNow();
      expect(await findings()).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            part: 'checkout',
            version: origin.checkout,
            subject: entry,
            kind,
            actual: expect.stringMatching(/^sha384-/),
          }),
        ]),
      );
      expect(await counted(kind)).toBeGreaterThanOrEqual(before + 1);
      expect((await get(origin, entry)).statusCode).toBe(404);
    } finally {
      // Put back from the backup with its old modification time, as `cp -p` or `rsync -a` would.
      copyKeepingTime(backup, path);
    }
    expect(statSync(path).mtimeMs).toBe(statSync(backup).mtimeMs);
    await origin.watch.checkNow();
    const repaired = await get(origin, entry);
    expect(repaired.statusCode).toBe(200);
    expect(repaired.body).toBe(intact.body);
  });

  it("found changed by the watch is refused at once even while the origin's kept verdict says intact, and sent again after a clean check", async () => {
    const origin = origins[name]!;
    const chunk = 'assets/page.js';
    expect((await get(origin, chunk)).statusCode).toBe(200);
    await settled(servedFile(origin, chunk));
    expect((await get(origin, chunk, 'br')).statusCode).toBe(200);
    // What the watch found on this disk overrides what the origin remembers.
    origin.check.watched(origin.storage.localPath(`remotes/checkout/${origin.checkout}`), [chunk]);
    expect((await get(origin, chunk)).statusCode).toBe(404);
    expect((await get(origin, chunk, 'br')).statusCode).toBe(404);
    await origin.watch.checkNow();
    expect((await get(origin, chunk)).statusCode).toBe(200);
    expect((await get(origin, chunk, 'br')).headers['content-encoding']).toBe('br');
  });

  it('asked for by any other spelling of its path answers 404 in the error shape, changed or not', async () => {
    const origin = origins[name]!;
    const listening = await buildStaticOrigin({ storage: origin.storage, logger: quiet, check: origin.check });
    const base = await listening.listen({ port: 0, host: '127.0.0.1' });
    try {
      const spellings = nonCanonical(origin.checkout, origin.shell);
      const canonical = `/remotes/checkout/${origin.checkout}/remoteEntry.js`;
      expect((await rawGet(base, canonical)).status).toBe(200);
      await expectAllRefused(base, spellings);
      // Changed on the origin: refused by its one spelling, and by every other.
      const path = servedFile(origin, 'remoteEntry.js');
      const backup = join(scratch, `${name}-spellings`);
      copyKeepingTime(path, backup);
      tamperKeepingMetadata(path, '"checkout"', '"evil-co"!');
      try {
        expect((await rawGet(base, canonical)).status).toBe(404);
        await expectAllRefused(base, spellings);
      } finally {
        copyKeepingTime(backup, path);
      }
      expect((await rawGet(base, canonical)).status).toBe(200);
    } finally {
      await listening.close();
    }
  });
});

describe('a bucket object changed in place, its ETag, size and time kept', () => {
  it('is found by the next check (it reads the bytes, not the metadata), while the origin keeps sending its intact copy', async () => {
    const origin = origins.s3!;
    const key = `remotes/checkout/${origin.checkout}/assets/page.js`;
    expect((await get(origin, 'assets/page.js')).statusCode).toBe(200);
    const objectFile = s3.objectFile(origin.storage.location(key).replace(`s3://${s3.bucket}/`, ''));
    wholeSecondTimes(objectFile);
    const stamp = await origin.storage.stamp(key);
    const backup = join(scratch, 'bucket-page.js');
    copyKeepingTime(objectFile, backup);
    tamperKeepingMetadata(objectFile, 'export default', 'export  evil  ');
    try {
      expect(await origin.storage.stamp(key)).toBe(stamp);
      await origin.watch.checkNow();
      expect(await findings()).toEqual(
        expect.arrayContaining([expect.objectContaining({ version: origin.checkout, subject: 'assets/page.js', kind: 'file' })]),
      );
      expect((await get(origin, 'assets/page.js')).statusCode).toBe(200);
    } finally {
      copyKeepingTime(backup, objectFile);
    }
  });
});

async function expectAllRefused(base: string, paths: string[]) {
  for (const path of paths) {
    const answer = await rawGet(base, path);
    expect(answer.status, path).toBe(404);
    const body = JSON.parse(answer.body) as { error: { code: string; message: string } };
    expect(body.error.code, path).toBe('not_found');
    expect(body.error.message, path).toMatch(/^(Súbor|Požadovaná adresa)/);
    expect(answer.headers['cache-control'], path).toBe('no-store');
  }
}
