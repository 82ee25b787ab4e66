/**
 * The server's side of the origin: it applies the release tool's signed move requests to the
 * registry it keeps in its database, and keeps the origin's `builds/latest.json` and
 * `builds/history.jsonl` as an export of that registry, never reading them back as the truth.
 *
 * - A request (`builds/requests/<time>-<nonce>.json`, release/src/move-request.ts) is applied only
 *   when signed by a key in the database that may move every part it names, recently, never seen
 *   before (its signature's bytes are kept), against the revision in force; then the same checks as
 *   every move run (pins, floors, canaries, routes, the versions' signed files). The outcome is
 *   written beside it for the waiting command, and audited.
 * - An export that differs from the registry in force (someone wrote the origin: an older signed
 *   version put back in latest.json, an edited history) changes nothing anyone is served; it is
 *   logged, recorded as an integrity finding, counted, and written over with the truth.
 * - A shop upgraded from the time the origin's files were the registry adopts them once, into an
 *   empty database (logged, audited).
 */
import type { FastifyBaseLogger } from 'fastify';
import {
  deployFromOrigin,
  finishCanary,
  historyText,
  isRequestName,
  outcomeKey,
  partsOf,
  readHistory,
  readRegistry,
  REGISTRY_KEY,
  HISTORY_KEY,
  REQUESTS_PREFIX,
  registryText,
  ReleaseRefused,
  requestKey,
  rollback,
  setPin,
  verifyMoveRequest,
  versionOf,
  type MoveOutcome,
  type MoveRequest,
  type ReleaseIntegrity,
  type ReleaseStorage,
  type SignedMoveRequest,
} from '@shop/release';
import type { ReleaseIdentities } from './identities.repository.ts';
import type { IntegrityFindings } from './integrity-findings.repository.ts';
import type { ReleaseKeys } from './release-keys.repository.ts';
import type { TrustedRegistry } from './registry.repository.ts';
import { TooManyFlags, type FlagChange, type FlagChanged } from './feature-flags.repository.ts';
import { MAX_FLAGS_PER_AREA } from '@shop/shared-kernel/rules';

/** How often a process that runs background work looks for requests and checks the export (ms). */
export const REQUEST_POLL_MS = 1000;
/** At most this many requests are looked at in one pass. */
const REQUESTS_PER_PASS = 20;

export type MoveRequestsOptions = {
  storage: ReleaseStorage;
  book: TrustedRegistry;
  keys: ReleaseKeys;
  integrity: ReleaseIntegrity | null;
  identities: ReleaseIdentities;
  findings: IntegrityFindings | null;
  log: FastifyBaseLogger;
  /** Makes a preview link for a version a request published (null: none; /ops makes one). */
  previewLink?: (part: string, version: string, by: string) => Promise<string | null>;
  /** Sets an area's feature switch and audits it (the shop's database); absent: a `flag` request is refused. */
  setFlag?: (change: FlagChange) => Promise<FlagChanged>;
  /** A staged canary's stage time when its command names none (the canary policy's CANARY_STAGE_MS). */
  canaryStageMs?: number;
  /** Counted per kind: `export-forged`, `request-refused`. */
  onEvent?: (kind: 'export-forged' | 'request-refused' | 'request-applied') => void;
};

/** Applies one verified request to the registry in force. */
async function apply(options: MoveRequestsOptions, request: MoveRequest): Promise<MoveOutcome> {
  const { storage, book, integrity } = options;
  // The revision in force now, not this process's reused copy: another process may have moved it a moment ago.
  const expected = (await book.exists()) ? await book.revisionNow() : null;
  // A rollback, pin or canary decision was made looking at one revision: applied to that one only. A
  // deploy asks for a signed build under every check of the state in force (pins, floors, canaries,
  // `onlyNew`), so several queued before the server starts (npm start, the bench) apply in turn.
  // A switch moves no version: it is set whatever the registry's revision.
  if (request.command.op !== 'deploy' && request.command.op !== 'flag' && request.baseRevision !== expected) {
    throw new ReleaseRefused(
      'registry_moved',
      `The request was made against revision ${request.baseRevision ?? 'none'}, the registry is at ${expected ?? 'none'}. Nothing was changed; ask again.`,
    );
  }
  const provenance = request.provenance;
  const command = request.command;
  switch (command.op) {
    case 'deploy': {
      const results = await deployFromOrigin({
        storage,
        book,
        parts: command.parts,
        mode:
          command.mode.kind === 'canary' && command.mode.stages && command.mode.stageMs === undefined && options.canaryStageMs
            ? { ...command.mode, stageMs: options.canaryStageMs }
            : command.mode,
        onlyNew: command.onlyNew === true,
        overridePin: command.overridePin === true,
        init: command.init === true,
        provenance,
        integrity,
      });
      const published = command.mode.kind === 'publish' ? results.find((result) => result.part !== 'shell') : undefined;
      const previewUrl =
        published && options.previewLink ? await options.previewLink(published.part, published.version, provenance.who) : null;
      return { ok: true, revision: (await book.read()).revision, results, previewUrl };
    }
    case 'rollback': {
      const result = await rollback({ storage, book, part: command.part, to: command.to, provenance, integrity });
      return { ok: true, revision: (await book.read()).revision, results: [result] };
    }
    case 'pin':
    case 'unpin': {
      const current = versionOf(await book.read(), command.part);
      const pin = await setPin({ storage, book, part: command.part, pinned: command.op === 'pin', provenance });
      const version = pin?.version ?? current ?? '';
      return { ok: true, revision: (await book.read()).revision, results: [{ part: command.part, version, from: current, changed: true }] };
    }
    case 'promote':
    case 'abort': {
      const result = await finishCanary({
        storage,
        book,
        area: command.area,
        outcome: command.op,
        provenance,
        ...(command.expectVersion ? { expectVersion: command.expectVersion } : {}),
        integrity,
      });
      return { ok: true, revision: (await book.read()).revision, results: [result] };
    }
    case 'flag': {
      if (!options.setFlag) throw new ReleaseRefused('no_registry', 'This server keeps no feature switches. Nothing was changed.');
      const flag = await options
        .setFlag({ area: command.area, name: command.name, share: command.share, by: provenance.who })
        .catch((error: unknown) => {
          if (!(error instanceof TooManyFlags)) throw error;
          throw new ReleaseRefused(
            'too_many_flags',
            `${command.area} has ${MAX_FLAGS_PER_AREA} feature switches already; a new one is refused. Nothing was changed.`,
          );
        });
      return { ok: true, revision: expected ?? '', results: [], flag };
    }
  }
}

/** A request whose signature was taken before: by another process applying the same file this moment, or a replay. */
export class ReplayRefused extends ReleaseRefused {}

/** Verifies and applies a signed request (from the origin, or posted with a team's credential); throws ReleaseRefused. */
export async function applySignedRequest(
  options: MoveRequestsOptions,
  signed: SignedMoveRequest,
): Promise<{ request: MoveRequest; outcome: MoveOutcome }> {
  const request = verifyMoveRequest(signed, await options.keys.trusted());
  const parts = partsOf(request.command);
  if (
    !(await options.keys.acceptSignature({
      signature: signed.signature,
      keyId: request.keyId,
      part: parts.join(','),
      version: `request:${request.command.op}`,
    }))
  ) {
    throw new ReplayRefused('bad_signature', 'This signed move request was seen before: a replay is refused. Nothing was changed.');
  }
  return { request, outcome: await apply(options, request) };
}

export type MoveRequestsWatch = {
  /** Applies every waiting request, then checks the export (what the timer does). */
  pass(): Promise<void>;
  /** A pass now, then one every REQUEST_POLL_MS (the process that runs background work). */
  start(): Promise<void>;
  stop(): void;
};

export function watchMoveRequests(options: MoveRequestsOptions & { scheduled?: boolean }): MoveRequestsWatch {
  const { storage, book, log } = options;
  /** A difference seen once: recorded when still there at the next look (not a write of another server caught midway). */
  let suspect: string | null = null;
  let running: Promise<void> | null = null;

  async function exportTruth(): Promise<void> {
    const texts = await truthTexts();
    await storage.writeTextAtomic(HISTORY_KEY, texts.history);
    await storage.writeTextAtomic(REGISTRY_KEY, texts.registry);
  }

  /** A shop whose database has no registry yet takes the origin's files once (an upgrade). */
  async function adoptOnce(): Promise<void> {
    if (await book.exists()) return;
    if (!(await storage.exists(REGISTRY_KEY))) return;
    const [registry, moves] = await Promise.all([readRegistry(storage), readHistory(storage)]);
    try {
      const written = await book.commit(
        { ...registry, revision: '0' },
        registry,
        moves.map((move) => ({ ...move })),
      );
      log.warn(
        { registry: { revision: written.revision } },
        "the database had no release registry: the origin's was taken as the first trusted state",
      );
      await options.identities.audit({
        actor: 'server',
        action: 'registry-adopt',
        part: null,
        allowed: true,
        detail: `revízia ${written.revision}`,
      });
    } catch (error) {
      if (!(error instanceof ReleaseRefused)) throw error;
    }
  }

  async function applyRequests(): Promise<void> {
    const names = (await storage.list(REQUESTS_PREFIX)).filter(isRequestName).sort().slice(0, REQUESTS_PER_PASS);
    for (const name of names) {
      const text = await storage.readText(requestKey(name));
      await storage.remove(requestKey(name));
      if (text === null) continue;
      let outcome: MoveOutcome;
      let actor = 'neznámy';
      try {
        const signed = JSON.parse(text) as SignedMoveRequest;
        const applied = await applySignedRequest(options, signed);
        actor = applied.request.provenance.who;
        outcome = applied.outcome;
        options.onEvent?.('request-applied');
        log.warn({ release: { request: name, command: applied.request.command.op, who: actor } }, 'release move request applied');
      } catch (error) {
        if (!(error instanceof ReleaseRefused) && !(error instanceof SyntaxError)) throw error;
        const code = error instanceof ReleaseRefused ? error.code : 'bad_signature';
        outcome = { ok: false, code, message: error.message };
        options.onEvent?.('request-refused');
        log.error({ release: { request: name, refused: code, message: error.message } }, 'release move request refused');
        await options.identities.audit({ actor, action: 'move-request', part: null, allowed: false, detail: `${name}: ${error.message}` });
        // Two processes that run background work may both read a request before either removes it;
        // the one whose claim of its signature won applies it and answers the waiting command. The
        // other's refusal must not answer it too (it could come first and read as the outcome).
        if (error instanceof ReplayRefused) continue;
      }
      await storage.writeTextAtomic(outcomeKey(name), JSON.stringify(outcome));
    }
  }

  /** The origin's files against the registry in force: a difference is someone else's writing. */
  async function checkExport(): Promise<void> {
    if (!(await book.exists())) return;
    const [truth, registry, history] = await Promise.all([truthTexts(), storage.readText(REGISTRY_KEY), storage.readText(HISTORY_KEY)]);
    if (registry === truth.registry && history === truth.history) {
      suspect = null;
      return;
    }
    // Not there (a new origin, a removed file): written, nothing to report.
    if (registry === null || history === null) {
      await exportTruth();
      return;
    }
    const seen = `${registry}\u0000${history}`;
    if (suspect !== seen) {
      // Seen once: another server may be writing its export this moment; looked at again next pass.
      suspect = seen;
      return;
    }
    suspect = null;
    const revision = (await book.read()).revision;
    const subject = registry !== truth.registry ? REGISTRY_KEY : HISTORY_KEY;
    log.error(
      { integrity: { subject, revision } },
      "the origin's registry export differs from the registry in force: someone wrote it; nothing served changes, it is written over",
    );
    options.onEvent?.('export-forged');
    await options.findings
      ?.record({
        part: 'registry',
        version: revision,
        subject,
        kind: 'registry',
        expected: `revízia ${revision}`,
        actual: (subject === REGISTRY_KEY ? registry : history).slice(0, 200),
        action: 'alert',
        detail: 'export registra na pôvode sa líšil od platného registra; prepísaný',
      })
      .catch((recordError: unknown) => log.error({ err: recordError }, 'could not record an integrity finding'));
    await exportTruth();
  }

  async function truthTexts(): Promise<{ registry: string; history: string }> {
    const [registry, moves] = await Promise.all([book.read(), book.history()]);
    return { registry: registryText(registry), history: historyText(moves) };
  }

  function pass(): Promise<void> {
    if (running) return running;
    running = (async () => {
      await adoptOnce();
      await applyRequests();
      await checkExport();
    })()
      .catch((error: unknown) => log.error({ err: error }, 'release move requests: pass failed; tried again'))
      .finally(() => {
        running = null;
      });
    return running;
  }

  // A move of this process is exported at once (open tabs and the release tool read it).
  book.onCommit(() => exportTruth().catch((error: unknown) => log.error({ err: error }, 'could not export the release registry')));
  let timer: NodeJS.Timeout | null = null;
  const start = async () => {
    if (timer) return;
    timer = setInterval(() => void pass(), REQUEST_POLL_MS);
    timer.unref();
    await pass();
  };
  if (options.scheduled) void start();
  return {
    pass,
    start,
    stop: () => {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}
