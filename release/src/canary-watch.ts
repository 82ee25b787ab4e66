/**
 * The canary watchdog: every few seconds it compares each running canary with the stable version
 * over the same minutes (since the canary started):
 * - its client error rate (errors per page view): with enough page views and a rate above the
 *   stable one by more than the margin, the canary is aborted, the reason naming its most reported
 *   error (message and top frame of the stack mapped with the canary's source maps) when known;
 * - its shoppers' field p75 INP and LCP (canary-speed.ts), when a VitalsReader is given: a metric
 *   worse than the stable one by the margin and the floor, over enough samples each side, aborts it;
 * - more judges (`judges`, e.g. the commerce guardrails) each abort on their own regression and must
 *   be healthy for a promotion or a stage's advance, each for the areas it names (`areas`) or all;
 * - with CANARY_AUTO_PROMOTE_MS set, a canary that has run that long with enough page views, enough
 *   vitals samples and no regression is promoted;
 * - a staged canary (canary-stages.ts) whose every judge is healthy once its stage has lasted the
 *   plan's time moves on to its next share; after the last stage it is promoted when its plan says
 *   so, else it waits there for an operator. It is judged on everything since it started.
 * Aborted: every shopper is back on the stable version on their next navigation. Each move is in
 * the history with who = canary-watch and the figures as the reason.
 */
import { advanceCanary, finishCanary } from './canary-finish.ts';
import { DEFAULT_STAGE_MS, STAGE_MS, stageName } from './canary-stages.ts';
import { ReleaseRefused } from './refusal.ts';
import type { AreaName, CanaryRelease } from './registry.ts';
import { originBook, type RegistryBook } from './registry-book.ts';
import type { ReleaseIntegrity } from './integrity.ts';
import type { ReleaseStorage } from './storage.ts';
import {
  DEFAULT_SPEED_POLICY,
  judgeCanarySpeed,
  VITAL_METRICS,
  type SpeedPolicy,
  type SpeedVerdict,
  type VersionVitals,
  type VitalsReader,
} from './canary-speed.ts';

export type VersionHealth = { area: string; version: string; views: number; errors: number };

/** One judge's look at a canary against the stable version since the canary started. */
export type CanaryJudgeVerdict = {
  /** `regressed` aborts the canary; only `healthy` lets it be promoted or move on; `unknown`: too few samples. */
  verdict: 'regressed' | 'healthy' | 'unknown';
  /** The figures behind it, one line, named in the history's reason. */
  figures: string;
};

/** A measure the watch judges canaries on beside errors and speed (e.g. the commerce guardrails). */
export type CanaryJudge = {
  /** The outcome's cause when it aborts (metrics, logs), e.g. `commerce`. */
  name: string;
  /** What the operator console says is judged (Slovak), e.g. `nákupy (košík → objednávka)`. */
  label: string;
  /** The areas whose canaries it judges (e.g. only the checkout); absent: every area. */
  areas?: readonly AreaName[];
  /**
   * `abort-only`: too few samples (`unknown`) does not hold a promotion or a stage, for a measure
   * many good canaries never gather enough of (card payments in a shop most pay otherwise); a
   * regression still aborts. Default: only `healthy` lets a canary on.
   */
  role?: 'abort-only';
  judge(input: { area: AreaName; canary: string; stable: string | null; since: Date }): Promise<CanaryJudgeVerdict>;
};

/** Who the history names for the watchdog's moves. */
export const CANARY_WATCH_ACTOR = 'canary-watch';

export type CanaryPolicy = {
  /** Page views the canary needs before it is judged. */
  minViews: number;
  /** How much higher (absolute, 0.05 = 5 percentage points) the canary's error rate may be. */
  margin: number;
  /** How often canaries are checked. */
  intervalMs: number;
  /** The speed judgement (defaults: DEFAULT_SPEED_POLICY); used only when the watch has a VitalsReader. */
  speed?: SpeedPolicy;
  /** After how long a canary without regression is promoted; 0 (the default): never, an operator promotes. */
  autoPromoteMs?: number;
  /** A staged canary's stage time when its command names none (CANARY_STAGE_MS). */
  stageMs?: number;
};

export const DEFAULT_CANARY_POLICY: Required<CanaryPolicy> = {
  minViews: 50,
  margin: 0.05,
  intervalMs: 15_000,
  speed: DEFAULT_SPEED_POLICY,
  autoPromoteMs: 0,
  stageMs: DEFAULT_STAGE_MS,
};

/** The longest CANARY_AUTO_PROMOTE_MS accepted (30 days). */
const MAX_AUTO_PROMOTE_MS = 30 * 24 * 60 * 60_000;

/**
 * A strictly read setting: unset or empty gives the default; anything else must be a number in
 * range (an integer where asked), else the server refuses to start with this message.
 */
export function strictNumber(
  env: NodeJS.ProcessEnv,
  name: string,
  fallback: number,
  range: { min: number; max: number; integer?: boolean; what: string },
): number {
  const value = env[name];
  if (value === undefined || value.trim() === '') return fallback;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed < range.min || parsed > range.max || (range.integer && !Number.isInteger(parsed))) {
    throw new Error(`Invalid ${name}: ${JSON.stringify(value)} (${range.what})`);
  }
  return parsed;
}

export function canaryPolicyFrom(env: NodeJS.ProcessEnv): Required<CanaryPolicy> {
  const number = (value: string | undefined, fallback: number, min: number, max: number) => {
    const parsed = Number(value);
    return value !== undefined && value !== '' && Number.isFinite(parsed) ? Math.min(max, Math.max(min, parsed)) : fallback;
  };
  const speed = DEFAULT_SPEED_POLICY;
  const autoPromoteMs = strictNumber(env, 'CANARY_AUTO_PROMOTE_MS', DEFAULT_CANARY_POLICY.autoPromoteMs, {
    min: 0,
    max: MAX_AUTO_PROMOTE_MS,
    integer: true,
    what: `milliseconds: 0 (never) or 1000 to ${MAX_AUTO_PROMOTE_MS}, e.g. 1800000 for 30 minutes`,
  });
  if (autoPromoteMs > 0 && autoPromoteMs < 1000) {
    throw new Error(`Invalid CANARY_AUTO_PROMOTE_MS: ${JSON.stringify(env.CANARY_AUTO_PROMOTE_MS)} (0 for never, else at least 1000)`);
  }
  return {
    minViews: number(env.CANARY_MIN_VIEWS, DEFAULT_CANARY_POLICY.minViews, 1, 1_000_000),
    margin: number(env.CANARY_ERROR_MARGIN, DEFAULT_CANARY_POLICY.margin, 0, 1),
    intervalMs: number(env.CANARY_CHECK_MS, DEFAULT_CANARY_POLICY.intervalMs, 500, 60_000),
    speed: {
      margin: strictNumber(env, 'CANARY_SPEED_MARGIN', speed.margin, {
        min: 0,
        max: 10,
        what: 'a share from 0 to 10, e.g. 0.2: the canary may be 20 % slower',
      }),
      floorMs: {
        inp: strictNumber(env, 'CANARY_INP_FLOOR_MS', speed.floorMs.inp, {
          min: 0,
          max: 10_000,
          integer: true,
          what: 'whole milliseconds from 0 to 10000, e.g. 50',
        }),
        lcp: strictNumber(env, 'CANARY_LCP_FLOOR_MS', speed.floorMs.lcp, {
          min: 0,
          max: 60_000,
          integer: true,
          what: 'whole milliseconds from 0 to 60000, e.g. 300',
        }),
      },
      minSamples: strictNumber(env, 'CANARY_MIN_VITALS', speed.minSamples, {
        min: 1,
        max: 1_000_000,
        integer: true,
        what: 'a whole number of samples from 1 to 1000000, e.g. 20',
      }),
    },
    autoPromoteMs,
    stageMs: strictNumber(env, 'CANARY_STAGE_MS', DEFAULT_STAGE_MS, {
      min: STAGE_MS.min,
      max: STAGE_MS.max,
      integer: true,
      what: `whole milliseconds from ${STAGE_MS.min} to ${STAGE_MS.max}, e.g. 1800000 for 30 minutes`,
    }),
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

/** A span as the history shows it: seconds, minutes or hours. */
function span(ms: number): string {
  if (ms < 120_000) return `${Math.round(ms / 1000)} s`;
  if (ms < 2 * 60 * 60_000) return `${Math.round(ms / 60_000)} min`;
  return `${(ms / (60 * 60_000)).toFixed(1)} h`;
}

/** What the watch did to a canary, for the caller's logs and metrics. */
export type CanaryOutcome = {
  area: AreaName;
  version: string;
  stable: string | null;
  action: 'abort' | 'promote' | 'advance';
  /**
   * `errors`: the error rate; `speed`: INP or LCP; another judge's name; `healthy`: promoted or moved
   * on after the time without regression.
   */
  cause: 'errors' | 'speed' | 'healthy' | (string & {});
  reason: string;
};

/** What the watch decided for one canary; `stageIndex`: the stage an advance was judged at. */
type Decision = Pick<CanaryOutcome, 'action' | 'cause' | 'reason'> & { stageIndex?: number };

export type CanaryWatch = {
  /** Judges every running canary once; answers the areas whose canary it aborted. */
  check(): Promise<string[]>;
  stop(): void;
};

export function startCanaryWatch(options: {
  storage: ReleaseStorage;
  /** The registry in force (the server's database); default: the origin's files. */
  book?: RegistryBook;
  health: (since: Date) => Promise<VersionHealth[]>;
  policy: CanaryPolicy;
  log: { warn(object: object, message: string): void; error(object: object, message: string): void };
  /** The field Web Vitals per area version; absent: speed is not judged (neither aborts nor holds a promotion). */
  vitals?: VitalsReader | null;
  /** Checks a promoted canary's files against their signed manifest, as an operator's promotion does. */
  integrity?: ReleaseIntegrity | null;
  /**
   * The canary's most reported client error since it started (message and top frame of its mapped
   * stack, one line), named in an abort for errors; absent or null: the abort names the figures only.
   */
  topError?: (area: AreaName, version: string, since: Date) => Promise<string | null>;
  /** More judges (each aborts on its regression, each must be healthy to promote or advance; only for the areas it names). */
  judges?: readonly CanaryJudge[];
  /** Told of every abort, promotion and stage advance (metrics). */
  onOutcome?: (outcome: CanaryOutcome) => void;
  /** The clock (tests): milliseconds since the epoch. */
  now?: () => number;
}): CanaryWatch {
  const { storage, health, policy, log, vitals } = options;
  const book = options.book ?? originBook(storage);
  const speedPolicy = policy.speed ?? DEFAULT_CANARY_POLICY.speed;
  const autoPromoteMs = policy.autoPromoteMs ?? 0;
  const now = options.now ?? Date.now;
  /** Promotions refused (area, version, code) already logged: retried on each check, logged once. */
  const refusedLogged = new Set<string>();
  let running = false;

  async function readVitals(area: AreaName, version: string | undefined, since: Date): Promise<VersionVitals> {
    const entries = await Promise.all(
      VITAL_METRICS.map(async (metric) => [
        metric,
        version && vitals ? await vitals.p75(area, version, metric, since) : { p75: null, samples: 0 },
      ]),
    );
    return Object.fromEntries(entries) as VersionVitals;
  }

  /** What to do with one canary now, or null: leave it running. */
  async function judge(area: AreaName, canary: CanaryRelease, stableVersion: string | undefined): Promise<Decision | null> {
    const since = new Date(canary.since);
    const rows = (await health(since)).filter((row) => row.area === area);
    const of = (version: string | undefined) => rows.find((row) => row.version === version) ?? { views: 0, errors: 0 };
    const stableHealth = of(stableVersion);
    const canaryHealth = of(canary.version);
    const errors = canaryVerdict(stableHealth, canaryHealth, policy);
    if (errors) {
      // The group a team starts from; the abort stands without it.
      const top = await options.topError?.(area, canary.version, since).catch(() => null);
      return { action: 'abort' as const, cause: 'errors' as const, reason: top ? `${errors}; most reported: ${top}` : errors };
    }

    let speed: SpeedVerdict | null = null;
    if (vitals) {
      const [stable, tried] = await Promise.all([readVitals(area, stableVersion, since), readVitals(area, canary.version, since)]);
      speed = judgeCanarySpeed(stable, tried, speedPolicy);
      if (speed.verdict === 'regressed') {
        return { action: 'abort' as const, cause: 'speed' as const, reason: `automatické zrušenie pre rýchlosť: ${speed.reason}` };
      }
    }

    // The judges beyond errors and speed (the commerce guardrails plug in here).
    const more = await Promise.all(
      (options.judges ?? [])
        .filter((judge) => !judge.areas || judge.areas.includes(area))
        .map(async (judge) => ({
          judge,
          ...(await judge.judge({ area, canary: canary.version, stable: stableVersion ?? null, since })),
        })),
    );
    const regressed = more.find((item) => item.verdict === 'regressed');
    if (regressed) {
      return {
        action: 'abort' as const,
        cause: regressed.judge.name,
        reason: `automatické zrušenie (${regressed.judge.label}): ${regressed.figures}`,
      };
    }

    const healthy =
      canaryHealth.views >= policy.minViews &&
      (!speed || speed.verdict === 'healthy') &&
      more.every((item) => item.verdict === 'healthy' || (item.verdict === 'unknown' && item.judge.role === 'abort-only'));
    const figures = () =>
      [
        `chybovosť ${percent(rate(canaryHealth))} z ${canaryHealth.views} zobrazení (stabilná verzia ${percent(rate(stableHealth))} z ${stableHealth.views})`,
        speed ? speed.reason : 'rýchlosť sa neposudzuje (bez údajov Web Vitals)',
        ...more.map((item) => item.figures),
      ].join('; ');

    const stages = canary.stages;
    if (stages) {
      const held = now() - Date.parse(stages.stageSince);
      if (!healthy || held < stages.stageMs) return null;
      if (stages.index < stages.shares.length - 1) {
        return {
          action: 'advance' as const,
          cause: 'healthy' as const,
          stageIndex: stages.index,
          reason: `automatický postup: ${stageName(stages)} → ${stageName(stages, stages.index + 1)} po ${span(held)} bez regresie: ${figures()}`,
        };
      }
      if (!stages.autoPromote) return null;
      return {
        action: 'promote' as const,
        cause: 'healthy' as const,
        reason: `automatické povýšenie po poslednej fáze (${stageName(stages)}, ${span(held)}) bez regresie: ${figures()}`,
      };
    }

    const ran = now() - since.getTime();
    if (autoPromoteMs <= 0 || ran < autoPromoteMs || !healthy) return null;
    return {
      action: 'promote' as const,
      cause: 'healthy' as const,
      reason: `automatické povýšenie po ${span(ran)} bez regresie: ${figures()}`,
    };
  }

  async function checkOne(area: AreaName, canary: CanaryRelease, stableVersion: string | undefined): Promise<boolean> {
    const decision = await judge(area, canary, stableVersion);
    if (!decision) return false;
    const { stageIndex, ...judged } = decision;
    const outcome: CanaryOutcome = { area, version: canary.version, stable: stableVersion ?? null, ...judged };
    const provenance = { who: CANARY_WATCH_ACTOR, reason: decision.reason };
    try {
      if (decision.action === 'advance') {
        await advanceCanary({ storage, book, area, expectVersion: canary.version, expectIndex: stageIndex!, provenance });
      } else {
        await finishCanary({
          storage,
          book,
          area,
          outcome: decision.action,
          expectVersion: canary.version,
          provenance,
          integrity: options.integrity ?? null,
        });
      }
    } catch (error) {
      if (!(error instanceof ReleaseRefused)) throw error;
      // An operator finished it, or another server's watch moved it, meanwhile: judged again on the next check.
      if (error.code === 'no_canary' || error.code === 'stage_moved' || error.code === 'registry_moved') return false;
      const key = `${area}\u0000${canary.version}\u0000${error.code}`;
      if (!refusedLogged.has(key)) {
        refusedLogged.add(key);
        log.error(
          { canary: outcome, refused: { code: error.code, message: error.message } },
          `automatic canary ${decision.action} refused`,
        );
      }
      return false;
    }
    log.warn(
      { canary: outcome },
      decision.action === 'abort'
        ? 'canary aborted automatically'
        : decision.action === 'advance'
          ? 'canary moved on to its next stage automatically'
          : 'canary promoted automatically',
    );
    options.onOutcome?.(outcome);
    return decision.action === 'abort';
  }

  async function check(): Promise<string[]> {
    if (running) return [];
    running = true;
    const aborted: string[] = [];
    try {
      const registry = await book.read();
      for (const [area, canary] of Object.entries(registry.canaries ?? {}) as [AreaName, CanaryRelease][]) {
        try {
          if (await checkOne(area, canary, registry.areas[area]?.version)) aborted.push(area);
        } catch (error) {
          log.error({ err: error, canary: { area, version: canary.version } }, 'canary check failed');
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
