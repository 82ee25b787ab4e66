/**
 * The canary's speed judgement: p75 INP and LCP of the canary against the stable version, each side
 * needing enough samples, a regression only beyond both the relative margin and the absolute floor.
 */
import { describe, expect, it } from 'vitest';
import { canaryPolicyFrom, DEFAULT_CANARY_POLICY } from '../src/canary-watch.ts';
import { judgeCanarySpeed, type SpeedPolicy, type VersionVitals } from '../src/canary-speed.ts';

const policy: SpeedPolicy = { margin: 0.2, floorMs: { inp: 50, lcp: 300 }, minSamples: 20 };

const vitals = (inp: number | null, lcp: number | null, samples = 100, lcpSamples = samples): VersionVitals => ({
  inp: { p75: inp, samples },
  lcp: { p75: lcp, samples: lcpSamples },
});

describe('judgeCanarySpeed', () => {
  it('is healthy when both metrics are judged and neither is worse beyond the margin and the floor', () => {
    const verdict = judgeCanarySpeed(vitals(100, 1200), vitals(110, 1300), policy);
    expect(verdict.verdict).toBe('healthy');
    expect(verdict.reason).toBe(
      'INP p75 110 ms proti 100 ms (stabilná verzia), 100/100 meraní; LCP p75 1300 ms proti 1200 ms (stabilná verzia), 100/100 meraní',
    );
    expect(verdict.metrics.map((metric) => metric.verdict)).toEqual(['healthy', 'healthy']);
  });

  it('is unknown while either side has too few samples of a metric, however bad the figures', () => {
    expect(judgeCanarySpeed(vitals(50, 1000), vitals(900, 9000, 19), policy).verdict).toBe('unknown');
    expect(judgeCanarySpeed(vitals(50, 1000, 19), vitals(900, 9000), policy).verdict).toBe('unknown');
    const missing = judgeCanarySpeed(vitals(50, 1000), vitals(null, null, 0), policy);
    expect(missing.verdict).toBe('unknown');
    expect(missing.reason).toContain(
      'INP p75 – proti 50 ms (stabilná verzia), 0/100 meraní (málo meraní: treba aspoň 20 na každej strane)',
    );
  });

  it('is unknown, not healthy, when one metric is fine and the other has too few samples', () => {
    const verdict = judgeCanarySpeed(vitals(100, 1200), vitals(100, 1200, 100, 3), policy);
    expect(verdict.verdict).toBe('unknown');
    expect(verdict.metrics.map((metric) => metric.verdict)).toEqual(['healthy', 'unknown']);
  });

  it('counts exactly the minimum of samples as enough', () => {
    expect(judgeCanarySpeed(vitals(100, 1200, 20), vitals(100, 1200, 20), policy).verdict).toBe('healthy');
  });

  it('aborts on INP alone, with the figures as the reason', () => {
    const verdict = judgeCanarySpeed(vitals(48, 1200, 120), vitals(612, 1210, 31), policy);
    expect(verdict.verdict).toBe('regressed');
    expect(verdict.metrics.map((metric) => metric.verdict)).toEqual(['regressed', 'healthy']);
    expect(verdict.reason).toBe(
      'INP p75 612 ms proti 48 ms (stabilná verzia), 31/120 meraní; povolené o 20 % a zároveň o +50 ms pre INP horšie',
    );
  });

  it('aborts on LCP alone', () => {
    const verdict = judgeCanarySpeed(vitals(100, 1500), vitals(100, 2500), policy);
    expect(verdict.verdict).toBe('regressed');
    expect(verdict.reason).toMatch(/^LCP p75 2500 ms proti 1500 ms \(stabilná verzia\), 100\/100 meraní; /);
    expect(verdict.reason).not.toContain('INP');
  });

  it('aborts on a judged regression even while the other metric has too few samples', () => {
    expect(judgeCanarySpeed(vitals(48, null, 100, 0), vitals(612, null, 100, 0), policy).verdict).toBe('regressed');
  });

  it('names both metrics when both regress', () => {
    const verdict = judgeCanarySpeed(vitals(100, 1000), vitals(400, 3000), policy);
    expect(verdict.verdict).toBe('regressed');
    expect(verdict.reason).toContain('INP p75 400 ms');
    expect(verdict.reason).toContain('LCP p75 3000 ms');
    expect(verdict.reason).toContain('+50 ms pre INP, +300 ms pre LCP');
  });

  it('does not call a small absolute difference a regression, however large relatively (the floor)', () => {
    // 50 ms against 40 ms: 25 % worse, but only 10 ms.
    expect(judgeCanarySpeed(vitals(40, 1000), vitals(50, 1000), policy).verdict).toBe('healthy');
    // INP +50 ms exactly is allowed; +51 ms (and > 20 %) is not.
    expect(judgeCanarySpeed(vitals(100, 1000), vitals(150, 1000), policy).verdict).toBe('healthy');
    expect(judgeCanarySpeed(vitals(100, 1000), vitals(151, 1000), policy).verdict).toBe('regressed');
    // LCP +300 ms on a fast page: 60 % worse, but the floor holds.
    expect(judgeCanarySpeed(vitals(100, 500), vitals(100, 800), policy).verdict).toBe('healthy');
  });

  it('does not call a difference within the margin a regression, however large absolutely', () => {
    // 4000 ms against 3500 ms: 500 ms worse, but only 14 %.
    expect(judgeCanarySpeed(vitals(100, 3500), vitals(100, 4000), policy).verdict).toBe('healthy');
    // 20 % exactly is allowed.
    expect(judgeCanarySpeed(vitals(500, 1000), vitals(600, 1000), policy).verdict).toBe('healthy');
    expect(judgeCanarySpeed(vitals(500, 1000), vitals(601, 1000), policy).verdict).toBe('regressed');
  });

  it('treats a faster canary as healthy and unusable figures as missing', () => {
    expect(judgeCanarySpeed(vitals(300, 3000), vitals(100, 1000), policy).verdict).toBe('healthy');
    expect(judgeCanarySpeed(vitals(100, 1000), vitals(Number.NaN, 1000), policy).verdict).toBe('unknown');
  });
});

describe('canaryPolicyFrom', () => {
  it('has the speed judgement and no automatic promotion by default', () => {
    expect(canaryPolicyFrom({})).toEqual(DEFAULT_CANARY_POLICY);
    expect(DEFAULT_CANARY_POLICY.autoPromoteMs).toBe(0);
    expect(DEFAULT_CANARY_POLICY.speed).toEqual({ margin: 0.2, floorMs: { inp: 50, lcp: 300 }, minSamples: 20 });
  });

  it('reads the speed settings and the promotion delay', () => {
    const policy = canaryPolicyFrom({
      CANARY_SPEED_MARGIN: '0.5',
      CANARY_INP_FLOOR_MS: '80',
      CANARY_LCP_FLOOR_MS: '0',
      CANARY_MIN_VITALS: '3',
      CANARY_AUTO_PROMOTE_MS: '1800000',
    });
    expect(policy.speed).toEqual({ margin: 0.5, floorMs: { inp: 80, lcp: 0 }, minSamples: 3 });
    expect(policy.autoPromoteMs).toBe(1_800_000);
    expect(canaryPolicyFrom({ CANARY_SPEED_MARGIN: '', CANARY_AUTO_PROMOTE_MS: '0' })).toEqual(DEFAULT_CANARY_POLICY);
  });

  it('refuses a bad value with a message naming the setting and what it takes', () => {
    const cases: [string, string, RegExp][] = [
      ['CANARY_SPEED_MARGIN', '20%', /^Invalid CANARY_SPEED_MARGIN: "20%" \(a share from 0 to 10, e\.g\. 0\.2/],
      ['CANARY_SPEED_MARGIN', '-0.1', /Invalid CANARY_SPEED_MARGIN/],
      ['CANARY_SPEED_MARGIN', '11', /Invalid CANARY_SPEED_MARGIN/],
      ['CANARY_INP_FLOOR_MS', '12.5', /Invalid CANARY_INP_FLOOR_MS: "12\.5" \(whole milliseconds/],
      ['CANARY_LCP_FLOOR_MS', '60001', /Invalid CANARY_LCP_FLOOR_MS/],
      ['CANARY_MIN_VITALS', '0', /Invalid CANARY_MIN_VITALS: "0"/],
      ['CANARY_MIN_VITALS', 'many', /Invalid CANARY_MIN_VITALS/],
      ['CANARY_AUTO_PROMOTE_MS', '500', /Invalid CANARY_AUTO_PROMOTE_MS: "500" \(0 for never, else at least 1000\)/],
      ['CANARY_AUTO_PROMOTE_MS', '30m', /Invalid CANARY_AUTO_PROMOTE_MS/],
      ['CANARY_AUTO_PROMOTE_MS', String(31 * 24 * 60 * 60_000), /Invalid CANARY_AUTO_PROMOTE_MS/],
    ];
    for (const [name, value, message] of cases) expect(() => canaryPolicyFrom({ [name]: value })).toThrow(message);
  });
});
