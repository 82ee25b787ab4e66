/**
 * Runs for every test file (vitest's setupFiles are evaluated again for each file, also when files
 * share a worker's modules): what one file made is gone before the next starts.
 */
import { afterAll, vi } from 'vitest';
import { removeTempDirs } from '@shop/release/testing';

afterAll(() => {
  removeTempDirs();
  vi.unstubAllEnvs();
  vi.useRealTimers();
});
