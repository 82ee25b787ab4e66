/**
 * The integrity watch (PCI DSS 11.6.1): on a schedule and after every release it re-hashes every
 * file of every version in force, in a canary or published for preview, on the origin or in the
 * bucket (and, with a bucket, this server's copy of it on disk), and compares them with the
 * versions' signed manifests; it reads back what browsers are sent for the versions in force (from
 * ASSET_ORIGIN, the CDN, and the shop's address: cdn-check.ts), and it checks the security headers
 * of the checkout's page; when a browser reports that an area failed to load, it checks that
 * version. Every byte is read on every check: no file's time, size or ETag stands in for reading
 * it. What it finds on this server's disk overrides the origin's remembered verdicts at once
 * (`localFiles`): a changed file is refused from then on, a repaired one sent again.
 *
 * A difference is logged, recorded (shown on /ops, counted in /api/metrics) and, unless the
 * policy is to alert only, acted on at once: a part in force goes back to its last version whose
 * files are intact (and is pinned there, so nothing moves it before an operator looks), a canary
 * is aborted. The next page load then serves intact files.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { IntegrityFindings, FindingAction, FindingKind } from './integrity-findings.repository.ts';
import { checkServedCopies, type ServedOrigins } from './cdn-check.ts';
import {
  type ReleaseIntegrity,
  partPrefix,
  finishCanary,
  rollback,
  ReleaseRefused,
  isArea,
  PARTS,
  originBook,
  versionOf,
  type RegistryBook,
  type PartName,
  type Registry,
  MANIFEST_FILE,
  type FileMismatch,
  type ReleaseStorage,
} from '@shop/release';
import { checkPageHeaders } from './page-headers-check.ts';

export type IntegrityPolicy = {
  /** How often everything is re-hashed (INTEGRITY_CHECK_MS). */
  intervalMs: number;
  /** 'fallback': act on a difference; 'alert': only record and log it (INTEGRITY_ACTION). */
  action: 'fallback' | 'alert';
};

export const DEFAULT_INTEGRITY_POLICY: IntegrityPolicy = { intervalMs: 60_000, action: 'fallback' };
/** How often the registry is looked at for a release to check at once (ms). */
const RELEASE_POLL_MS = 2_000;
/** A browser's report starts a check at most this often (ms): reports cannot keep the checker busy. */
const REPORT_DEBOUNCE_MS = 5_000;
/** Published versions checked besides what is in force: the newest few per area. */
const PREVIEWS_CHECKED = 3;
/** Who the history names for a fallback. */
export const INTEGRITY_ACTOR = 'kontrola integrity';

export function integrityPolicyFrom(env: NodeJS.ProcessEnv): IntegrityPolicy {
  const interval = Number(env.INTEGRITY_CHECK_MS);
  return {
    intervalMs:
      env.INTEGRITY_CHECK_MS && Number.isFinite(interval)
        ? Math.min(3_600_000, Math.max(1_000, interval))
        : DEFAULT_INTEGRITY_POLICY.intervalMs,
    action: env.INTEGRITY_ACTION === 'alert' ? 'alert' : 'fallback',
  };
}

type Target = { part: PartName; version: string; role: 'live' | 'canary' | 'preview' };
/** One difference found, and of what kind (the origin's file, this server's copy of it, what the CDN sends, the signature). */
type Found = { kind: FindingKind; mismatch: FileMismatch };

function targetsOf(registry: Registry, published: Map<string, string[]>): Target[] {
  const targets: Target[] = [];
  for (const part of PARTS) {
    const version = versionOf(registry, part);
    if (version) targets.push({ part, version, role: 'live' });
    const canary = isArea(part) ? registry.canaries?.[part] : undefined;
    if (canary) targets.push({ part, version: canary.version, role: 'canary' });
    for (const preview of published.get(part) ?? []) {
      if (!targets.some((target) => target.part === part && target.version === preview))
        targets.push({ part, version: preview, role: 'preview' });
    }
  }
  return targets;
}

export type IntegrityWatch = {
  /** Checks everything now (and waits for it). */
  checkNow(): Promise<void>;
  /** A browser could not load this area's version: check soon. */
  reported(part: string, version: string | null): void;
  stop(): void;
};

export function startIntegrityWatch(options: {
  storage: ReleaseStorage;
  /** The registry in force (the server's database); default: the origin's files (tests). */
  book?: RegistryBook;
  /** Told when a part is contained for want of a version in good standing (a metric; an operator must act). */
  onContained?: (part: PartName, version: string) => void;
  integrity: ReleaseIntegrity;
  findings: IntegrityFindings;
  policy: IntegrityPolicy;
  log: FastifyBaseLogger;
  /** The checkout's page, whose security headers are checked (null: not checked). */
  checkoutPageUrl: string | null;
  /** False: no schedule, only checks asked for (a cluster's web server; its worker keeps the schedule). */
  scheduled?: boolean;
  onCheck?: (outcome: 'intact' | 'tampered' | 'failed') => void;
  /** Where browsers load released files from, read back for the versions in force (none: not read back). */
  served?: ServedOrigins;
  /** This process's origin (web/verified-files.ts): told what the watch read on this disk. */
  localFiles?: { watched(dir: string, tampered: readonly string[]): void };
}): IntegrityWatch {
  const { storage, integrity, findings, policy, log } = options;
  const book = options.book ?? originBook(storage);
  const readRegistry = (_storage: ReleaseStorage) => book.read();
  let running: Promise<void> | null = null;
  /** The read-back of what browsers are sent, while one runs. */
  let reading: Promise<void> | null = null;
  let again = false;
  let lastRevision: string | null = null;
  let lastReport = 0;
  let stopped = false;

  async function publishedVersions(): Promise<Map<string, string[]>> {
    const published = new Map<string, string[]>();
    for (const entry of (await book.history()).reverse()) {
      if (entry.action !== 'publish') continue;
      const list = published.get(entry.part) ?? [];
      if (list.length < PREVIEWS_CHECKED && !list.includes(entry.to) && (await storage.exists(partPrefix(entry.part, entry.to))))
        list.push(entry.to);
      published.set(entry.part, list);
    }
    return published;
  }

  /**
   * The part's last version that was in force and left it in good standing: replaced by a deploy or
   * a promotion (never rolled back from, by an operator or by this watch), not floored, its files
   * intact. Null when there is none: the part is contained and an operator decides. An attacker who
   * can write the origin must not choose what comes back.
   */
  async function lastGoodVersion(part: PartName, current: string): Promise<string | null> {
    const moves = (await book.history()).filter((entry) => entry.part === part && ['deploy', 'rollback', 'promote'].includes(entry.action));
    const rolledBackFrom = new Set(moves.filter((entry) => entry.action === 'rollback').map((entry) => entry.from));
    const floored = new Set((await book.floors(part)).map((floor) => floor.version));
    const seen = new Set([current]);
    for (let index = moves.length - 1; index >= 0; index -= 1) {
      const leaving = moves[index]!;
      const candidate = leaving.from;
      // `leaving` took `candidate` out of force: only a deploy or a promotion leaves it in good standing.
      if (!candidate || seen.has(candidate)) continue;
      seen.add(candidate);
      if (leaving.action === 'rollback' || rolledBackFrom.has(candidate) || floored.has(candidate)) continue;
      if (!(await storage.exists(partPrefix(part, candidate)))) continue;
      if ((await integrity.check(part, candidate).catch(() => null))?.length === 0) return candidate;
    }
    return null;
  }

  /** What was done about a target; null when another server's move came first and it recorded what it did. */
  async function act(target: Target, mismatches: FileMismatch[]): Promise<{ action: FindingAction; detail: string } | null> {
    const files = mismatches
      .slice(0, 3)
      .map((mismatch) => mismatch.file)
      .join(', ');
    const reason = `${files} nesedí s podpísaným manifestom`;
    if (policy.action === 'alert' || target.role === 'preview') return { action: 'alert', detail: 'len upozornenie' };
    try {
      if (target.role === 'canary' && isArea(target.part)) {
        await finishCanary({
          storage,
          book,
          area: target.part,
          outcome: 'abort',
          provenance: { who: INTEGRITY_ACTOR, reason },
          expectVersion: target.version,
        });
        return { action: 'canary-aborted', detail: `kanárske vydanie ${target.version} ukončené` };
      }
      const good = await lastGoodVersion(target.part, target.version);
      if (!good) {
        // Contained: the browsers refuse the changed bytes (the import map) and the origin does not send
        // them, so the shopper sees the area's "unavailable" message with its retry; an operator decides.
        log.error(
          { integrity: { part: target.part, version: target.version } },
          'no earlier version in good standing to fall back to: the part is contained until an operator acts',
        );
        options.onContained?.(target.part, target.version);
        return {
          action: 'contained',
          detail: 'žiadna skoršia verzia v dobrom stave (nevrátená, neoznačená, neporušená): časť je obmedzená, treba zásah operátora',
        };
      }
      // The watch's own fallback does not mark the changed version: its signed build may be released again once the origin is clean.
      await rollback({
        storage,
        book,
        part: target.part,
        to: good,
        provenance: { who: INTEGRITY_ACTOR, reason },
        integrity,
        floorFrom: false,
      });
      return { action: 'fallback', detail: `vrátené na ${good} a pripnuté` };
    } catch (error) {
      if (!(error instanceof ReleaseRefused)) throw error;
      // Two servers check the same browser report: when the other's fallback came first, the changed
      // version is no longer in force and that server recorded what it did; this refusal recorded over
      // it would tell the operator nothing was done. (A move reads the state in force: the fresh look.)
      if (error.code === 'registry_moved' && target.role === 'live') {
        const inForce = await book.exclusive(`integrity check ${target.part}`, async () => versionOf(await book.read(), target.part));
        if (inForce !== target.version) return null;
      }
      return { action: 'alert', detail: `návrat odmietnutý: ${error.message}` };
    }
  }

  /** What differs of a target's files on the origin (or in the bucket) and on this disk; every byte read. */
  async function differences(target: Target): Promise<Found[]> {
    let mismatches: FileMismatch[];
    try {
      mismatches = await integrity.check(target.part, target.version);
    } catch (error) {
      if (!(error instanceof ReleaseRefused)) throw error;
      return [{ kind: 'signature', mismatch: { file: MANIFEST_FILE, expected: 'platný podpis', actual: error.message } }];
    }
    // The origin sends from this disk: what was read there is what it may send from now on.
    const onThisDisk = mismatches.filter((mismatch) => (storage.local ? mismatch.where === undefined : mismatch.where === 'local-copy'));
    options.localFiles?.watched(
      storage.localPath(partPrefix(target.part, target.version)),
      onThisDisk.map((mismatch) => mismatch.file),
    );
    return mismatches.map((mismatch) => ({ kind: mismatch.where === 'local-copy' ? 'cache' : 'file', mismatch }));
  }

  /** Logs, acts on and records what was found of a target. */
  async function handle(target: Target, found: Found[]): Promise<void> {
    log.error(
      { integrity: { ...target, files: found.slice(0, 20).map(({ kind, mismatch }) => ({ kind, ...mismatch })) } },
      'released files differ from their signed manifest',
    );
    const done = await act(
      target,
      found.map(({ mismatch }) => mismatch),
    );
    if (!done) {
      log.warn({ integrity: target }, 'integrity finding handled by another server first');
      return;
    }
    const { action, detail } = done;
    for (const { kind, mismatch } of found.slice(0, 50)) {
      await findings.record({
        part: target.part,
        version: target.version,
        subject: mismatch.file,
        kind,
        expected: mismatch.expected,
        actual: mismatch.actual,
        action,
        detail,
      });
    }
    log.warn({ integrity: { ...target, action, detail } }, 'integrity finding handled');
  }

  async function checkTarget(target: Target): Promise<boolean> {
    const found = await differences(target);
    if (found.length === 0) return true;
    await handle(target, found);
    return false;
  }

  /**
   * Reads back what browsers are sent of the versions in force (cdn-check.ts): its own pass, one at a
   * time, begun after each check, so the hashing of a release and a browser's report never wait for
   * a slow CDN. Asked for while one runs, it is not begun again: the next check begins the next one.
   */
  function readBack(targets: Target[]): Promise<void> {
    const origins = options.served;
    if (!origins || reading || stopped) return reading ?? Promise.resolve();
    reading = (async () => {
      for (const target of targets) {
        if (stopped || target.role === 'preview') continue;
        const manifest = await integrity.manifest(target.part, target.version).catch(() => null);
        if (!manifest) continue;
        const served = await checkServedCopies({ part: target.part, version: target.version, manifest, origins });
        if (served.unavailable.count > 0)
          log.warn(
            { integrity: { ...target, unavailable: served.unavailable } },
            'released files were not served where browsers load them',
          );
        if (served.mismatches.length === 0) continue;
        // Acted on only while the version is still where it was read (a check may have moved it meanwhile).
        const now = targetsOf(await readRegistry(storage), new Map());
        const still = now.some(
          (candidate) => candidate.part === target.part && candidate.version === target.version && candidate.role === target.role,
        );
        await handle(
          still ? target : { ...target, role: 'preview' },
          served.mismatches.map((mismatch) => ({ kind: 'cdn', mismatch })),
        );
      }
    })()
      .catch((error: unknown) => log.error({ err: error }, 'reading back the served files failed; tried again after the next check'))
      .finally(() => {
        reading = null;
      });
    return reading;
  }

  async function checkHeaders(registry: Registry): Promise<boolean> {
    if (!options.checkoutPageUrl || !registry.shell) return true;
    const problems = await checkPageHeaders(options.checkoutPageUrl).catch((error: unknown) => {
      // The shop not answering is the readiness check's to report, not a change of its headers.
      log.debug({ err: error }, 'checkout page not reachable for the header check');
      return [] as string[];
    });
    if (problems.length === 0) return true;
    const subject = new URL(options.checkoutPageUrl).pathname;
    log.error({ integrity: { page: subject, problems } }, 'the checkout page answers without its security headers');
    for (const problem of problems.slice(0, 10)) {
      await findings.record({
        part: 'shell',
        version: registry.shell.version,
        subject: `${subject}: ${problem}`,
        kind: 'headers',
        expected: null,
        actual: problem,
        action: 'alert',
      });
    }
    return false;
  }

  async function checkAll(): Promise<void> {
    const registry = await readRegistry(storage);
    lastRevision = registry.revision;
    let intact = true;
    const targets = targetsOf(registry, await publishedVersions());
    for (const target of targets) {
      if (stopped) return;
      if (!(await checkTarget(target))) intact = false;
    }
    if (!(await checkHeaders(await readRegistry(storage)))) intact = false;
    await findings.checked(intact ? 'intact' : 'tampered', registry.revision);
    options.onCheck?.(intact ? 'intact' : 'tampered');
    void readBack(targets);
  }

  /** Only the version a browser reported, when it is one the shop serves: a report costs a fraction of a full check. */
  async function checkReported(reported: { part: string; version: string }): Promise<void> {
    const registry = await readRegistry(storage);
    const target = targetsOf(registry, await publishedVersions()).find(
      (candidate) => candidate.part === reported.part && candidate.version === reported.version,
    );
    if (!target) return;
    await checkTarget(target);
    // The browser may have been sent other bytes than the origin holds.
    void readBack([target]);
  }

  /** One check at a time: asked for while one runs, a full check follows it. */
  function run(reported?: { part: string; version: string }): Promise<void> {
    if (running) {
      again = true;
      return running;
    }
    running = (reported ? checkReported(reported) : checkAll())
      .catch((error: unknown) => {
        options.onCheck?.('failed');
        void findings.checked('failed', lastRevision).catch(() => undefined);
        log.error({ err: error }, 'integrity check failed; tried again at the next interval');
      })
      .finally(() => {
        running = null;
        if (again && !stopped) {
          again = false;
          void run();
        }
      });
    return running;
  }

  const timers: NodeJS.Timeout[] = [];
  if (options.scheduled !== false) {
    timers.push(setInterval(() => void run(), policy.intervalMs));
    // A release is checked as soon as it is in force (the registry's revision moves).
    timers.push(
      setInterval(() => {
        void readRegistry(storage).then(
          (registry) => {
            if (registry.revision !== lastRevision) void run();
          },
          () => undefined,
        );
      }, RELEASE_POLL_MS),
    );
    for (const timer of timers) timer.unref();
    void run();
  }

  return {
    // The check, a check asked for meanwhile, and the read-back each begins.
    checkNow: async () => {
      await run();
      if (running) await running;
      if (reading) await reading;
    },
    reported(part, version) {
      if (!version || Date.now() - lastReport < REPORT_DEBOUNCE_MS) return;
      lastReport = Date.now();
      log.warn({ integrity: { part, version } }, 'a browser could not load a released version: checking its files');
      void run({ part, version });
    },
    stop() {
      stopped = true;
      for (const timer of timers) clearInterval(timer);
    },
  };
}
