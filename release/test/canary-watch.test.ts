/**
 * The canary watchdog's loop on a local origin, with a fake VitalsReader and a fake clock: a canary
 * slower on INP alone is aborted with no error at all, a healthy one is promoted once it has run
 * CANARY_AUTO_PROMOTE_MS, and nothing moves while the samples are too few.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_CANARY_POLICY, startCanaryWatch, type CanaryOutcome, type CanaryPolicy, type VersionHealth } from '../src/canary-watch.ts';
import type { VitalFigures, VitalMetric, VitalsReader } from '../src/canary-speed.ts';
import { deploy } from '../src/deploy.ts';
import { readHistory, readRegistry, type AreaName } from '../src/registry.ts';
import { localDirectoryStorage, type ReleaseStorage } from '../src/storage.ts';
import { fakeAreaBuild, tempDir } from './support/index.ts';

const provenance = { who: 'test' };
let storage: ReleaseStorage;
let stable: string;
let canary: string;
let since: number;

beforeEach(async () => {
  storage = localDirectoryStorage(tempDir('origin-'));
  const deployed = (marker: string, extra: Partial<Parameters<typeof deploy>[0]> = {}) =>
    deploy({ storage, part: 'checkout', distDir: fakeAreaBuild('checkout', { marker }), packageVersion: '1.0.0', provenance, ...extra });
  stable = (await deployed('stable', { init: true })).version;
  canary = (await deployed('canary', { mode: { kind: 'canary', share: 50 } })).version;
  since = Date.parse((await readRegistry(storage)).canaries!.checkout!.since);
});

/** Figures per version and metric, changed by the test as shoppers would. */
type Figures = Record<string, Partial<Record<VitalMetric, VitalFigures>>>;

function fakeVitals(figures: () => Figures): VitalsReader & { calls: { part: AreaName; since: Date }[] } {
  const calls: { part: AreaName; since: Date }[] = [];
  return {
    calls,
    p75: async (part, version, metric, from) => {
      calls.push({ part, since: from });
      return figures()[version]?.[metric] ?? { p75: null, samples: 0 };
    },
  };
}

const policy: CanaryPolicy = {
  ...DEFAULT_CANARY_POLICY,
  minViews: 10,
  intervalMs: 60_000,
  speed: { margin: 0.2, floorMs: { inp: 50, lcp: 300 }, minSamples: 20 },
  autoPromoteMs: 30 * 60_000,
};

function watchWith(options: {
  health: () => VersionHealth[];
  vitals?: VitalsReader;
  now: () => number;
  policy?: CanaryPolicy;
  topError?: (area: AreaName, version: string, since: Date) => Promise<string | null>;
}) {
  const warnings: { object: object; message: string }[] = [];
  const errors: object[] = [];
  const outcomes: CanaryOutcome[] = [];
  const watch = startCanaryWatch({
    storage,
    health: async () => options.health(),
    policy: options.policy ?? policy,
    vitals: options.vitals,
    now: options.now,
    log: { warn: (object, message) => warnings.push({ object, message }), error: (object) => errors.push(object) },
    onOutcome: (outcome) => outcomes.push(outcome),
    topError: options.topError,
  });
  return { watch, warnings, errors, outcomes };
}

const noErrors = (): VersionHealth[] => [
  { area: 'checkout', version: stable, views: 500, errors: 1 },
  { area: 'checkout', version: canary, views: 120, errors: 0 },
];

describe('the canary watch', () => {
  it('aborts a canary slower on INP alone, with no error thrown, and writes the figures into the history', async () => {
    let canaryInp: VitalFigures = { p75: 612, samples: 12 };
    const vitals = fakeVitals(() => ({
      [stable]: { inp: { p75: 48, samples: 120 }, lcp: { p75: 1200, samples: 90 } },
      [canary]: { inp: canaryInp, lcp: { p75: 1180, samples: 25 } },
    }));
    const clock = { now: since + 60_000 };
    const { watch, warnings, errors, outcomes } = watchWith({ health: noErrors, vitals, now: () => clock.now });
    try {
      // Too few INP samples on the canary's side: not judged yet.
      expect(await watch.check()).toEqual([]);
      expect((await readRegistry(storage)).canaries?.checkout?.version).toBe(canary);
      canaryInp = { p75: 612, samples: 31 };
      expect(await watch.check()).toEqual(['checkout']);
    } finally {
      watch.stop();
    }
    // Both sides read over the canary's minutes.
    expect(vitals.calls.every((call) => call.part === 'checkout' && call.since.getTime() === since)).toBe(true);
    const registry = await readRegistry(storage);
    expect(registry.canaries?.checkout).toBeUndefined();
    expect(registry.areas.checkout!.version).toBe(stable);
    const last = (await readHistory(storage)).at(-1)!;
    expect(last).toMatchObject({ action: 'abort', who: 'canary-watch', from: canary, to: stable });
    expect(last.reason).toBe(
      'automatické zrušenie pre rýchlosť: INP p75 612 ms proti 48 ms (stabilná verzia), 31/120 meraní; povolené o 20 % a zároveň o +50 ms pre INP horšie',
    );
    expect(warnings.map((warning) => warning.message)).toEqual(['canary aborted automatically']);
    expect(outcomes).toEqual([expect.objectContaining({ area: 'checkout', version: canary, stable, action: 'abort', cause: 'speed' })]);
    expect(errors).toEqual([]);
  });

  it('aborts on LCP alone too', async () => {
    const vitals = fakeVitals(() => ({
      [stable]: { inp: { p75: 80, samples: 100 }, lcp: { p75: 1200, samples: 100 } },
      [canary]: { inp: { p75: 80, samples: 100 }, lcp: { p75: 2600, samples: 40 } },
    }));
    const { watch } = watchWith({ health: noErrors, vitals, now: () => since + 1000 });
    expect(await watch.check()).toEqual(['checkout']);
    watch.stop();
    expect((await readHistory(storage)).at(-1)!.reason).toContain('LCP p75 2600 ms proti 1200 ms (stabilná verzia), 40/100 meraní');
  });

  it('still aborts on the error rate first, with its reason', async () => {
    const vitals = fakeVitals(() => ({}));
    const { watch, outcomes } = watchWith({
      health: () => [
        { area: 'checkout', version: stable, views: 500, errors: 0 },
        { area: 'checkout', version: canary, views: 20, errors: 20 },
      ],
      vitals,
      now: () => since + 1000,
    });
    expect(await watch.check()).toEqual(['checkout']);
    watch.stop();
    expect(outcomes[0]).toMatchObject({ action: 'abort', cause: 'errors' });
    expect((await readHistory(storage)).at(-1)!.reason).toContain('automatic abort: client error rate 100.0 %');
  });

  it('names the canary’s most reported error group in an abort for errors', async () => {
    const asked: { area: string; version: string; since: number }[] = [];
    const { watch } = watchWith({
      health: () => [
        { area: 'checkout', version: stable, views: 500, errors: 0 },
        { area: 'checkout', version: canary, views: 20, errors: 20 },
      ],
      now: () => since + 1000,
      topError: async (area, version, from) => {
        asked.push({ area, version, since: from.getTime() });
        return '"RangeError: Množstvo musí byť kladné" at priceOfLine (src/basket-rules.ts:3:15), 20 reports';
      },
    });
    expect(await watch.check()).toEqual(['checkout']);
    watch.stop();
    expect(asked).toEqual([{ area: 'checkout', version: canary, since }]);
    expect((await readHistory(storage)).at(-1)!.reason).toMatch(
      /^automatic abort: client error rate 100\.0 % .*; most reported: "RangeError: Množstvo musí byť kladné" at priceOfLine \(src\/basket-rules\.ts:3:15\), 20 reports$/,
    );
  });

  it('promotes a canary without regression once it has run the configured time, and not before', async () => {
    const vitals = fakeVitals(() => ({
      [stable]: { inp: { p75: 90, samples: 300 }, lcp: { p75: 1400, samples: 200 } },
      [canary]: { inp: { p75: 95, samples: 40 }, lcp: { p75: 1350, samples: 30 } },
    }));
    const clock = { now: since + 29 * 60_000 };
    const { watch, warnings, outcomes } = watchWith({ health: noErrors, vitals, now: () => clock.now });
    try {
      expect(await watch.check()).toEqual([]);
      expect((await readRegistry(storage)).canaries?.checkout).toBeDefined();
      clock.now = since + 30 * 60_000;
      // Promoted: not an abort.
      expect(await watch.check()).toEqual([]);
    } finally {
      watch.stop();
    }
    const registry = await readRegistry(storage);
    expect(registry.canaries?.checkout).toBeUndefined();
    expect(registry.areas.checkout!.version).toBe(canary);
    const last = (await readHistory(storage)).at(-1)!;
    expect(last).toMatchObject({ action: 'promote', who: 'canary-watch', from: stable, to: canary, share: 100 });
    expect(last.reason).toBe(
      'automatické povýšenie po 30 min bez regresie: chybovosť 0.0 % z 120 zobrazení (stabilná verzia 0.2 % z 500); ' +
        'INP p75 95 ms proti 90 ms (stabilná verzia), 40/300 meraní; LCP p75 1350 ms proti 1400 ms (stabilná verzia), 30/200 meraní',
    );
    expect(warnings.map((warning) => warning.message)).toEqual(['canary promoted automatically']);
    expect(outcomes).toEqual([expect.objectContaining({ action: 'promote', cause: 'healthy', version: canary })]);
  });

  it('does nothing while the samples are too few, however long the canary has run', async () => {
    const historyBefore = await readHistory(storage);
    const cases: { health: () => VersionHealth[]; figures: Figures }[] = [
      // Enough vitals, too few page views.
      {
        health: () => [
          { area: 'checkout', version: stable, views: 500, errors: 0 },
          { area: 'checkout', version: canary, views: 9, errors: 0 },
        ],
        figures: {
          [stable]: { inp: { p75: 90, samples: 300 }, lcp: { p75: 1400, samples: 200 } },
          [canary]: { inp: { p75: 95, samples: 40 }, lcp: { p75: 1350, samples: 30 } },
        },
      },
      // Enough page views, too few LCP samples on the canary (a regression it cannot yet tell).
      {
        health: noErrors,
        figures: {
          [stable]: { inp: { p75: 90, samples: 300 }, lcp: { p75: 1400, samples: 200 } },
          [canary]: { inp: { p75: 95, samples: 40 }, lcp: { p75: 5000, samples: 19 } },
        },
      },
      // Too few samples on the stable side (few shoppers outside the canary).
      {
        health: noErrors,
        figures: {
          [stable]: { inp: { p75: 40, samples: 5 }, lcp: { p75: 1400, samples: 5 } },
          [canary]: { inp: { p75: 900, samples: 40 }, lcp: { p75: 1350, samples: 30 } },
        },
      },
      // No vitals at all.
      { health: noErrors, figures: {} },
    ];
    for (const { health, figures } of cases) {
      const { watch, warnings, outcomes } = watchWith({ health, vitals: fakeVitals(() => figures), now: () => since + 24 * 60 * 60_000 });
      expect(await watch.check()).toEqual([]);
      watch.stop();
      expect(warnings).toEqual([]);
      expect(outcomes).toEqual([]);
    }
    expect((await readRegistry(storage)).canaries?.checkout?.version).toBe(canary);
    expect(await readHistory(storage)).toEqual(historyBefore);
  });

  it('never promotes with automatic promotion off (the default)', async () => {
    const vitals = fakeVitals(() => ({
      [stable]: { inp: { p75: 90, samples: 300 }, lcp: { p75: 1400, samples: 200 } },
      [canary]: { inp: { p75: 95, samples: 40 }, lcp: { p75: 1350, samples: 30 } },
    }));
    const { watch, outcomes } = watchWith({
      health: noErrors,
      vitals,
      now: () => since + 24 * 60 * 60_000,
      policy: { ...policy, autoPromoteMs: 0 },
    });
    expect(await watch.check()).toEqual([]);
    watch.stop();
    expect(outcomes).toEqual([]);
    expect((await readRegistry(storage)).canaries?.checkout?.version).toBe(canary);
  });

  it('without a VitalsReader judges errors only: promotes on them, and says speed was not judged', async () => {
    const { watch } = watchWith({ health: noErrors, now: () => since + 30 * 60_000 });
    await watch.check();
    watch.stop();
    const last = (await readHistory(storage)).at(-1)!;
    expect(last).toMatchObject({ action: 'promote', who: 'canary-watch', to: canary });
    expect(last.reason).toContain('rýchlosť sa neposudzuje (bez údajov Web Vitals)');
  });

  it('leaves the canary running and logs when the vitals cannot be read', async () => {
    const { watch, errors, outcomes } = watchWith({
      health: noErrors,
      vitals: {
        p75: async () => {
          throw new Error('database gone');
        },
      },
      now: () => since + 30 * 60_000,
    });
    expect(await watch.check()).toEqual([]);
    watch.stop();
    expect(errors).toHaveLength(1);
    expect(outcomes).toEqual([]);
    expect((await readRegistry(storage)).canaries?.checkout?.version).toBe(canary);
  });
});
