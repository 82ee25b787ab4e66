/**
 * A canary judged on speed: its shoppers' field p75 INP and LCP (all its routes together, since
 * the canary started) against the stable version's over the same minutes. A metric regresses when
 * the canary's p75 is worse than the stable one by more than the relative margin AND by more than
 * the metric's absolute floor (so 40 ms against 50 ms is not a regression), each side having at
 * least the minimum number of samples. Pure: the figures come from a VitalsReader (the API reads
 * them from its database; this package never imports the API).
 */
import type { AreaName } from './registry.ts';

export type VitalMetric = 'lcp' | 'inp';
export const VITAL_METRICS: readonly VitalMetric[] = ['inp', 'lcp'];

/** One version's field figures for one metric: the 75th percentile (ms; null: no sample) and how many samples. */
export type VitalFigures = { p75: number | null; samples: number };

/** Where the watch reads the field Web Vitals from (the API's telemetry repository implements it). */
export type VitalsReader = {
  p75(part: AreaName, version: string, metric: VitalMetric, since: Date): Promise<VitalFigures>;
};

/** One version's figures for every judged metric. */
export type VersionVitals = Record<VitalMetric, VitalFigures>;

export type SpeedPolicy = {
  /** How much worse the canary's p75 may be, relative (0.2 = 20 % slower). */
  margin: number;
  /** How much worse the canary's p75 may be in any case, absolute, per metric (ms). */
  floorMs: Record<VitalMetric, number>;
  /** Samples each side (canary and stable) needs for a metric before it is judged. */
  minSamples: number;
};

export const DEFAULT_SPEED_POLICY: SpeedPolicy = { margin: 0.2, floorMs: { inp: 50, lcp: 300 }, minSamples: 20 };

export type MetricVerdict = {
  metric: VitalMetric;
  verdict: 'regressed' | 'healthy' | 'unknown';
  canary: VitalFigures;
  stable: VitalFigures;
};

export type SpeedVerdict = {
  /**
   * `regressed`: at least one metric is worse beyond the margin and the floor (enough samples for it);
   * `healthy`: every metric judged and none worse; `unknown`: otherwise (too few samples or no figures).
   */
  verdict: 'regressed' | 'healthy' | 'unknown';
  /** The figures in Slovak, as the history shows them: the regressed metrics, else every metric. */
  reason: string;
  metrics: MetricVerdict[];
};

const ms = (value: number | null) => (value === null ? '–' : `${Math.round(value)} ms`);
const usable = (figures: VitalFigures): number | null =>
  figures.p75 !== null && Number.isFinite(figures.p75) && figures.p75 >= 0 ? figures.p75 : null;

function judgeMetric(metric: VitalMetric, stable: VitalFigures, canary: VitalFigures, policy: SpeedPolicy): MetricVerdict {
  const canaryP75 = usable(canary);
  const stableP75 = usable(stable);
  if (canaryP75 === null || stableP75 === null || canary.samples < policy.minSamples || stable.samples < policy.minSamples) {
    return { metric, verdict: 'unknown', canary, stable };
  }
  const worse = canaryP75 - stableP75;
  const regressed = canaryP75 > stableP75 * (1 + policy.margin) && worse > policy.floorMs[metric];
  return { metric, verdict: regressed ? 'regressed' : 'healthy', canary, stable };
}

/** `INP p75 612 ms proti 48 ms (stabilná verzia), 31/120 meraní` (canary samples / stable samples). */
export function describeMetric(verdict: MetricVerdict): string {
  return `${verdict.metric.toUpperCase()} p75 ${ms(usable(verdict.canary))} proti ${ms(usable(verdict.stable))} (stabilná verzia), ${verdict.canary.samples}/${verdict.stable.samples} meraní`;
}

export function judgeCanarySpeed(stable: VersionVitals, canary: VersionVitals, policy: SpeedPolicy): SpeedVerdict {
  const metrics = VITAL_METRICS.map((metric) => judgeMetric(metric, stable[metric], canary[metric], policy));
  const regressed = metrics.filter((metric) => metric.verdict === 'regressed');
  if (regressed.length > 0) {
    const allowed = regressed.map((metric) => `+${policy.floorMs[metric.metric]} ms pre ${metric.metric.toUpperCase()}`).join(', ');
    return {
      verdict: 'regressed',
      reason: `${regressed.map(describeMetric).join('; ')}; povolené o ${Math.round(policy.margin * 100)} % a zároveň o ${allowed} horšie`,
      metrics,
    };
  }
  const verdict = metrics.every((metric) => metric.verdict === 'healthy') ? 'healthy' : 'unknown';
  const reason = metrics
    .map((metric) =>
      metric.verdict === 'unknown'
        ? `${describeMetric(metric)} (málo meraní: treba aspoň ${policy.minSamples} na každej strane)`
        : describeMetric(metric),
    )
    .join('; ');
  return { verdict, reason, metrics };
}
