/**
 * The canary watchdog: every few seconds it compares each running canary's
 * client error rate (errors per page view, since the canary started) with the
 * stable version's over the same minutes. Once the canary has enough page
 * views and its rate exceeds the stable one by more than the margin, the
 * canary is aborted (every shopper back on the stable version on their next
 * navigation) and the history says why.
 */
import { finishCanary } from './releases.ts';
import { ReleaseRefused } from './refusal.ts';
import { readRegistry, type AreaName, type CanaryRelease } from './registry.ts';
import type { ReleaseStorage } from './storage.ts';

export type VersionHealth = { area: string; version: string; views: number; errors: number };

export type CanaryPolicy = {
  /** Page views the canary needs before it is judged. */
  minViews: number;
  /** How much higher (absolute, 0.05 = 5 percentage points) the canary's error rate may be. */
  margin: number;
  /** How often canaries are checked. */
  intervalMs: number;
};

export const DEFAULT_CANARY_POLICY: CanaryPolicy = { minViews: 50, margin: 0.05, intervalMs: 15_000 };

export function canaryPolicyFrom(env: NodeJS.ProcessEnv): CanaryPolicy {
  const number = (value: string | undefined, fallback: number, min: number, max: number) => {
    const parsed = Number(value);
    return value !== undefined && value !== '' && Number.isFinite(parsed) ? Math.min(max, Math.max(min, parsed)) : fallback;
  };
  return {
    minViews: number(env.CANARY_MIN_VIEWS, DEFAULT_CANARY_POLICY.minViews, 1, 1_000_000),
    margin: number(env.CANARY_ERROR_MARGIN, DEFAULT_CANARY_POLICY.margin, 0, 1),
    intervalMs: number(env.CANARY_CHECK_MS, DEFAULT_CANARY_POLICY.intervalMs, 500, 60_000),
  };
}

const rate = (health: { views: number; errors: number }) => health.errors / Math.max(health.views, 1);
const percent = (value: number) => `${(value * 100).toFixed(1)} %`;

/** Why a canary must be aborted, or null while it holds (or has too few page views to judge). */
export function canaryVerdict(
  stable: { views: number; errors: number },
  canary: { views: number; errors: number },
  policy: CanaryPolicy,
): string | null {
  if (canary.views < policy.minViews) return null;
  const canaryRate = rate(canary);
  const stableRate = rate(stable);
  if (canaryRate <= stableRate + policy.margin) return null;
  return `automatic abort: client error rate ${percent(canaryRate)} over ${canary.views} page views (${canary.errors} errors) against ${percent(stableRate)} for the stable version over ${stable.views}; allowed margin ${percent(policy.margin)}`;
}

export type CanaryWatch = { check(): Promise<string[]>; stop(): void };

export function startCanaryWatch(options: {
  storage: ReleaseStorage;
  health: (since: Date) => Promise<VersionHealth[]>;
  policy: CanaryPolicy;
  log: { warn(object: object, message: string): void; error(object: object, message: string): void };
}): CanaryWatch {
  const { storage, health, policy, log } = options;
  let running = false;

  async function check(): Promise<string[]> {
    if (running) return [];
    running = true;
    const aborted: string[] = [];
    try {
      const registry = await readRegistry(storage);
      for (const [area, canary] of Object.entries(registry.canaries ?? {}) as [AreaName, CanaryRelease][]) {
        const stableVersion = registry.areas[area]?.version;
        const rows = (await health(new Date(canary.since))).filter((row) => row.area === area);
        const of = (version: string | undefined) => rows.find((row) => row.version === version) ?? { views: 0, errors: 0 };
        const reason = canaryVerdict(of(stableVersion), of(canary.version), policy);
        if (!reason) continue;
        try {
          await finishCanary({
            storage,
            area,
            outcome: 'abort',
            expectVersion: canary.version,
            provenance: { who: 'canary-watch', reason },
          });
          log.warn({ canary: { area, version: canary.version, stable: stableVersion, reason } }, 'canary aborted automatically');
          aborted.push(area);
        } catch (error) {
          // An operator finished it meanwhile.
          if (!(error instanceof ReleaseRefused && error.code === 'no_canary')) throw error;
        }
      }
    } catch (error) {
      log.error({ err: error }, 'canary check failed');
    } finally {
      running = false;
    }
    return aborted;
  }

  const timer = setInterval(() => void check(), policy.intervalMs);
  timer.unref();
  return { check, stop: () => clearInterval(timer) };
}
