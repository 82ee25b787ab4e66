/**
 * The two storages the release flow is tested on, the local directory and S3 (a real local
 * S3-compatible server, s3rver), each a new origin with the checkout area and the shell in force;
 * and what those tests share: who releases, a refusal caught, what a refused release must leave.
 * Test files share their worker's modules: the S3 server and the origins are made per file, by
 * `releaseBench()` at the file's top, and the storage a test uses is the file's own.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect } from 'vitest';
import {
  deploy,
  HISTORY_KEY,
  localDirectoryStorage,
  readRegistry,
  REGISTRY_KEY,
  ReleaseRefused,
  type ReleaseStorage,
} from '../../src/index.ts';
import { fakeAreaBuild, fakeShellBuild } from './fake-builds.ts';
import { startS3Server, type S3TestServer } from './s3-server.ts';

export type Backend = { name: string; local: boolean; /** A new, empty origin. */ make(): ReleaseStorage };

export const provenance = { who: 'test', commit: 'abc123def456', dirty: false };

/**
 * A test file's storages, made per file: the S3 server started before its tests and stopped after
 * them, the origin directories removed after each test. `onEveryBackend(body)` declares `body`'s
 * tests once per storage ("releases on …"), each test on a new origin with checkout (marker v1) and
 * the shell released, handed to `use` before the test; the releases and reads here act on it.
 */
export function releaseBench(use: (storage: ReleaseStorage) => void) {
  let s3: S3TestServer | undefined;
  const origins: string[] = [];
  let current: ReleaseStorage | undefined;
  const backends: Backend[] = [
    {
      name: 'the local directory',
      local: true,
      make: () => {
        const dir = mkdtempSync(join(tmpdir(), 'origin-'));
        origins.push(dir);
        return localDirectoryStorage(dir);
      },
    },
    { name: 'S3 (s3rver)', local: false, make: () => s3!.storage() },
  ];
  beforeAll(async () => {
    s3 = await startS3Server();
  });
  afterAll(async () => {
    await s3?.stop();
  });
  afterEach(() => {
    for (const dir of origins.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  /** A new origin on `backend` with checkout (marker v1) and the shell released. */
  async function seeded(backend: Backend) {
    const storage = backend.make();
    await deploy({
      storage,
      part: 'checkout',
      distDir: fakeAreaBuild('checkout', { marker: 'v1' }),
      packageVersion: '1.0.0',
      provenance,
      init: true,
    });
    await deploy({ storage, part: 'shell', distDir: fakeShellBuild(), packageVersion: '1.0.0', provenance });
    return storage;
  }

  return {
    onEveryBackend: (body: (backend: Backend) => void) =>
      describe.each(backends)('releases on $name', (backend) => {
        beforeEach(async () => {
          current = await seeded(backend);
          use(current);
        });
        body(backend);
      }),
    deployArea: async (
      area: string,
      options: Parameters<typeof fakeAreaBuild>[1] = {},
      extra: Partial<Parameters<typeof deploy>[0]> = {},
    ) =>
      deploy({
        storage: current!,
        part: area as 'checkout',
        distDir: fakeAreaBuild(area, options),
        packageVersion: '1.0.0',
        provenance,
        ...extra,
      }),
    /** Everything a refused release must leave untouched. */
    snapshot: async () => ({ registry: await current!.readText(REGISTRY_KEY), history: await current!.readText(HISTORY_KEY) }),
    inForce: async (area: 'checkout' | 'catalog' = 'checkout') => (await readRegistry(current!)).areas[area]?.version,
  };
}

export async function refusal(promise: Promise<unknown>): Promise<ReleaseRefused> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ReleaseRefused);
  return error as ReleaseRefused;
}
