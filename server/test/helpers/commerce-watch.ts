/**
 * The canary watch as a server runs it, for the commerce guardrails' tests: the checkout's error
 * rates healthy on both sides, so only the judges given decide; and the canary series of
 * /api/metrics read from the registry's history as a server reads them (shop.ts).
 */
import { expect } from 'vitest';
import { startCanaryWatch, type CanaryJudge, type CanaryPolicy, type ReleaseStorage, type VersionHealth } from '@shop/release';
import { canarySeries } from '../../src/domains/releases/canary-jobs.ts';
import type { TrustedRegistry } from '../../src/domains/releases/registry.repository.ts';
import { createMetrics } from '../../src/infra/observability/metrics.ts';

/** The watch's own rule on errors: with both sides' rates equal it never decides. */
export const HEALTHY_WATCH_POLICY: CanaryPolicy = { minViews: 10, margin: 0.05, intervalMs: 3_600_000 };

/** The shop's release storage and registry; `stageMs`: how long the stage has lasted at the check (a staged canary may move on). */
export type CommerceWatch = { storage: ReleaseStorage; book: TrustedRegistry; stageMs: number };

/** One check of such a watch, as one server's timer runs it: the areas it aborted; it logs no error. */
export async function checkOnce(
  { storage, book, stageMs }: CommerceWatch,
  versions: { stable: string; canary: string },
  judges: readonly CanaryJudge[],
): Promise<string[]> {
  const health = (): VersionHealth[] => [
    { area: 'checkout', version: versions.stable, views: 100, errors: 0 },
    { area: 'checkout', version: versions.canary, views: 100, errors: 0 },
  ];
  const errors: object[] = [];
  const watcher = startCanaryWatch({
    storage,
    book,
    health: async () => health(),
    policy: HEALTHY_WATCH_POLICY,
    judges,
    now: () => Date.now() + stageMs,
    log: { warn: () => undefined, error: (object) => errors.push(object) },
  });
  try {
    return await watcher.check();
  } finally {
    watcher.stop();
    expect(errors).toEqual([]);
  }
}

/** The canary series of /api/metrics from the registry's history. */
export async function canaryScrape(book: TrustedRegistry): Promise<string> {
  const metrics = createMetrics(async () => ({ pending: 0, dead: 0 }));
  canarySeries(metrics, book);
  return metrics.registry.metrics();
}
