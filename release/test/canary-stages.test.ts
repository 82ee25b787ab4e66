/**
 * Staged canaries (ramps) in the release tool, on a local origin with a fake clock: the command's
 * `--stages` and `--stage-min` are bounded; a ramp is refused out of bounds; the canary watch moves a
 * healthy canary on stage by stage only once each stage has lasted its time, promotes it after the
 * last one when its plan says so (else holds it there), aborts it from the stage it is at, and waits
 * for every further judge (the commerce guardrails' place) to be healthy.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { parseStageMinutes, parseStages, stagesProblem } from '../src/canary-stages.ts';
import { DEFAULT_CANARY_POLICY, startCanaryWatch, type CanaryJudge, type CanaryPolicy, type VersionHealth } from '../src/canary-watch.ts';
import { deploy, type DeployMode } from '../src/deploy.ts';
import { ReleaseRefused } from '../src/refusal.ts';
import { readHistory, readRegistry } from '../src/registry.ts';
import { localDirectoryStorage, type ReleaseStorage } from '../src/storage.ts';
import { fakeAreaBuild, tempDir } from './support/index.ts';

const provenance = { who: 'test' };
const STAGE_MS = 30 * 60_000;
let storage: ReleaseStorage;
let stable: string;

const release = (marker: string, mode?: DeployMode) =>
  deploy({
    storage,
    part: 'checkout',
    distDir: fakeAreaBuild('checkout', { marker }),
    packageVersion: '1.0.0',
    provenance,
    ...(mode ? { mode } : {}),
  });

beforeEach(async () => {
  storage = localDirectoryStorage(tempDir('origin-'));
  stable = (
    await deploy({
      storage,
      part: 'checkout',
      distDir: fakeAreaBuild('checkout', { marker: 'stable' }),
      packageVersion: '1.0.0',
      provenance,
      init: true,
    })
  ).version;
});

/** The error-rate judgement only (no Web Vitals reader): the stages' rule is the same with speed. */
const policy: CanaryPolicy = { ...DEFAULT_CANARY_POLICY, minViews: 10, intervalMs: 60_000, autoPromoteMs: 0 };

function watchWith(health: () => VersionHealth[], now: () => number, judges: CanaryJudge[] = []) {
  const errors: object[] = [];
  const watch = startCanaryWatch({
    storage,
    health: async () => health(),
    policy,
    now,
    judges,
    log: { warn: () => undefined, error: (object) => errors.push(object) },
  });
  return { watch, errors };
}

const checkout = async () => (await readRegistry(storage)).canaries?.checkout;

describe('--stages and --stage-min', () => {
  it('take 1 to 5 increasing whole shares from 1 to 99, and whole minutes from 1 to 1440', () => {
    expect(parseStages('5,25,50')).toEqual([5, 25, 50]);
    expect(parseStages(' 1, 2 ,3,4,99')).toEqual([1, 2, 3, 4, 99]);
    expect(parseStages('10')).toEqual([10]);
    for (const bad of ['', '0', '100', '5,5', '50,25', '5,10,20,30,40,50', '5.5', 'a', '5,,25', '-5', '1e1'])
      expect(() => parseStages(bad), bad).toThrow(/--stages takes 1 to 5 whole percentages from 1 to 99/);
    expect(stagesProblem([])).toBe('1 to 5 stages');
    expect(stagesProblem([5, 25, 25])).toBe('each stage larger than the one before');

    expect(parseStageMinutes('30')).toBe(30 * 60_000);
    expect(parseStageMinutes('1440')).toBe(1440 * 60_000);
    for (const bad of ['0', '1441', '1.5', 'x', '', '-1'])
      expect(() => parseStageMinutes(bad), bad).toThrow('--stage-min takes whole minutes from 1 to 1440');
  });

  it('are read by the command, which refuses them with --canary or out of bounds before it does anything', async () => {
    const run = (args: string[]) =>
      new Promise<{ code: number; stderr: string }>((resolve) =>
        execFile(
          process.execPath,
          ['--import', 'tsx', 'src/cli.ts', 'deploy', 'checkout', '--no-build', ...args, '--origin', tempDir('no-origin-')],
          { cwd: join(import.meta.dirname, '..'), env: { ...process.env, S3_BUCKET: '' } },
          (error, _stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stderr }),
        ),
      );
    const [down, both, alone] = await Promise.all([
      run(['--stages', '50,25']),
      run(['--canary', '5', '--stages', '5,25']),
      run(['--stage-min', '30']),
    ]);
    expect(down).toMatchObject({ code: 1 });
    expect(down.stderr).toContain('each stage larger than the one before');
    expect(both.stderr).toContain('leave out --canary');
    expect(alone.stderr).toContain('--stage-min and --auto-promote go with --stages');
  });

  it('a ramp out of bounds is refused by the move itself, nothing changed', async () => {
    for (const mode of [
      { kind: 'canary', share: 5, stages: [5, 5] },
      { kind: 'canary', share: 10, stages: [5, 25] },
      { kind: 'canary', share: 5, stages: [5, 25], stageMs: 10 },
    ] satisfies DeployMode[]) {
      const refused = await release('bad', mode).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(ReleaseRefused);
      expect((refused as ReleaseRefused).code).toBe('bad_stages');
    }
    expect(await checkout()).toBeUndefined();
  });
});

describe('the canary watch and a staged canary', () => {
  it('moves a healthy canary on 5 → 25 → 50 only after each stage’s time, then promotes it to everyone', async () => {
    const canary = (await release('good', { kind: 'canary', share: 5, stages: [5, 25, 50], stageMs: STAGE_MS, autoPromote: true })).version;
    expect(await checkout()).toMatchObject({
      version: canary,
      share: 5,
      stages: { shares: [5, 25, 50], index: 0, stageMs: STAGE_MS, autoPromote: true },
    });
    const health = () => [
      { area: 'checkout', version: stable, views: 200, errors: 1 },
      { area: 'checkout', version: canary, views: 40, errors: 0 },
    ];
    const clock = { now: Date.now() };
    const { watch, errors } = watchWith(health, () => clock.now);
    try {
      // Healthy, but the stage has not lasted its time: it stays.
      clock.now += STAGE_MS - 60_000;
      await watch.check();
      expect((await checkout())!.stages!.index).toBe(0);
      for (const [index, share] of [
        [1, 25],
        [2, 50],
      ]) {
        clock.now = Date.now() + STAGE_MS;
        await watch.check();
        const now = (await checkout())!;
        expect(now).toMatchObject({ share, stages: { index } });
        // The next stage starts its own time: a check right away does not move it again.
        clock.now = Date.parse(now.stages!.stageSince) + 1000;
        await watch.check();
        expect((await checkout())!.share).toBe(share);
      }
      clock.now = Date.now() + STAGE_MS;
      await watch.check();
    } finally {
      watch.stop();
    }
    const registry = await readRegistry(storage);
    expect(registry.canaries?.checkout).toBeUndefined();
    expect(registry.areas.checkout!.version).toBe(canary);
    const moves = (await readHistory(storage)).filter((move) => move.to === canary);
    expect(moves.map((move) => [move.action, move.share, move.who])).toEqual([
      ['canary', 5, 'test'],
      ['advance', 25, 'canary-watch'],
      ['advance', 50, 'canary-watch'],
      ['promote', 100, 'canary-watch'],
    ]);
    expect(moves[1]!.reason).toMatch(
      /^automatický postup: fáza 1 z 3 \(5 %\) → fáza 2 z 3 \(25 %\) po \d+ min bez regresie: chybovosť 0\.0 % z 40 zobrazení/,
    );
    expect(moves[3]!.reason).toMatch(/^automatické povýšenie po poslednej fáze \(fáza 3 z 3 \(50 %\), \d+ min\) bez regresie/);
    expect(errors).toEqual([]);
  });

  it('holds a canary at its last stage for an operator when its plan does not promote', async () => {
    const canary = (await release('held', { kind: 'canary', share: 10, stages: [10, 50], stageMs: STAGE_MS })).version;
    const health = () => [
      { area: 'checkout', version: stable, views: 200, errors: 0 },
      { area: 'checkout', version: canary, views: 40, errors: 0 },
    ];
    const { watch } = watchWith(health, () => Date.now() + 10 * STAGE_MS);
    await watch.check();
    await watch.check();
    watch.stop();
    expect(await checkout()).toMatchObject({ version: canary, share: 50, stages: { index: 1 } });
    expect((await readRegistry(storage)).areas.checkout!.version).toBe(stable);
  });

  it('aborts a bad build from the stage it is at, back to the stable version, never moving it on', async () => {
    const canary = (await release('bad', { kind: 'canary', share: 5, stages: [5, 25, 50], stageMs: STAGE_MS, autoPromote: true })).version;
    const health = () => [
      { area: 'checkout', version: stable, views: 200, errors: 0 },
      { area: 'checkout', version: canary, views: 12, errors: 12 },
    ];
    const { watch } = watchWith(health, () => Date.now() + STAGE_MS);
    expect(await watch.check()).toEqual(['checkout']);
    watch.stop();
    const registry = await readRegistry(storage);
    expect(registry.canaries?.checkout).toBeUndefined();
    expect(registry.areas.checkout!.version).toBe(stable);
    const moves = (await readHistory(storage)).filter((move) => move.to === canary || move.from === canary);
    expect(moves.map((move) => move.action)).toEqual(['canary', 'abort']);
  });

  it('asks every further judge: one regressed aborts with its figures, one without enough samples holds the stage', async () => {
    const canary = (await release('judged', { kind: 'canary', share: 5, stages: [5, 25], stageMs: STAGE_MS })).version;
    const health = () => [
      { area: 'checkout', version: stable, views: 200, errors: 0 },
      { area: 'checkout', version: canary, views: 40, errors: 0 },
    ];
    let verdict: 'regressed' | 'healthy' | 'unknown' = 'unknown';
    const asked: string[] = [];
    const commerce: CanaryJudge = {
      name: 'commerce',
      label: 'nákupy',
      judge: async (input) => {
        asked.push(`${input.area} ${input.canary} ${input.stable}`);
        return { verdict, figures: `objednávky ${verdict}` };
      },
    };
    const { watch } = watchWith(health, () => Date.now() + STAGE_MS, [commerce]);
    try {
      await watch.check();
      expect((await checkout())!.stages!.index).toBe(0);
      verdict = 'regressed';
      expect(await watch.check()).toEqual(['checkout']);
    } finally {
      watch.stop();
    }
    expect(asked).toEqual([`checkout ${canary} ${stable}`, `checkout ${canary} ${stable}`]);
    expect((await readHistory(storage)).at(-1)).toMatchObject({
      action: 'abort',
      who: 'canary-watch',
      reason: 'automatické zrušenie (nákupy): objednávky regressed',
    });
  });

  it('asks a judge that names its areas about those areas’ canaries only', async () => {
    const canary = (await release('other-area-judge', { kind: 'canary', share: 5, stages: [5, 25], stageMs: STAGE_MS })).version;
    const health = () => [
      { area: 'checkout', version: stable, views: 200, errors: 0 },
      { area: 'checkout', version: canary, views: 40, errors: 0 },
    ];
    const asked: string[] = [];
    const accountOnly: CanaryJudge = {
      name: 'account-only',
      label: 'len účet',
      areas: ['account'],
      judge: async (input) => {
        asked.push(input.area);
        return { verdict: 'regressed', figures: 'vždy zlé' };
      },
    };
    const { watch } = watchWith(health, () => Date.now() + STAGE_MS, [accountOnly]);
    try {
      expect(await watch.check()).toEqual([]);
    } finally {
      watch.stop();
    }
    expect(asked).toEqual([]);
    expect((await checkout())!).toMatchObject({ version: canary, share: 25 });
  });
});
