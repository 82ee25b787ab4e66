import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

/**
 * The files' order: the fuzz spends the sign-in and contact limits of the one client address
 * (every request comes from loopback), so it runs after the files that sign in; killing servers
 * comes before it, so that the fuzz also checks the restarted ones.
 */
const ORDER = [
  'edge-limits',
  'two-servers',
  'edge-cache',
  'releases-through-nginx',
  'races',
  'integrity-bytes',
  'supervision',
  'render-sandbox',
  'fuzz',
];
const rank = (file: TestSpecification) => {
  const index = ORDER.findIndex((name) => file.moduleId.endsWith(`/${name}.test.ts`));
  return index < 0 ? ORDER.length : index;
};

class InOrder extends BaseSequencer {
  override sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return Promise.resolve([...files].sort((a, b) => rank(a) - rank(b)));
  }
}

/**
 * The files whose subject is where released files live: releases reaching open tabs and nginx,
 * tampered files, the render sandbox loading a release. The second pass of `npm test`, with the
 * origin in an S3 bucket (CLUSTER_ORIGIN=s3), runs these; the rest (two servers sharing state, the
 * page cache's rules, races, limits, supervision, fuzz) do not depend on where releases live and ran
 * on the first pass.
 */
export const ORIGIN_DEPENDENT = ['releases-through-nginx', 'integrity-bytes', 'render-sandbox'];

/**
 * The multi-server tests: real processes (two web servers, two workers) behind nginx on PostgreSQL
 * and Redis, started once by global-setup.mjs from the built server (api/dist), as `npm run
 * start:cluster` runs them. `npm test` runs them after the build.
 */
export default defineConfig({
  test: {
    root: import.meta.dirname,
    include: process.env.CLUSTER_ORIGIN === 's3' ? ORIGIN_DEPENDENT.map((name) => `${name}.test.ts`) : ['**/*.test.ts'],
    environment: 'node',
    pool: 'forks',
    fileParallelism: false,
    sequence: { sequencer: InOrder },
    globalSetup: ['./global-setup.mjs'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
