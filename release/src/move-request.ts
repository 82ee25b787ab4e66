/**
 * A signed move request: how the release tool, working on the origin directly (`npm start`'s
 * release step, an owner's machine), asks the shop's server to move a part. The tool uploads a
 * version's files (with their signed manifest) and writes the request, signed with its key, to
 * `builds/requests/`; the server verifies it against the keys in its database (the shop's key for
 * every part, a team's for its own area), refuses one signed too long ago, replayed, or made
 * against another revision than the one in force, runs the same checks as every other move (pins,
 * floors, canaries, routes, signed files) and applies it to the registry it keeps, then writes the
 * outcome beside the request. Nothing an origin writer can forge moves a part.
 * The same request, posted with a team's credential, is the team's signature on a rollback.
 */
import { createPublicKey, randomBytes, sign, verify } from 'node:crypto';
import { isFlagName, isFlagShare } from '@shop/shared-kernel/rules';
import { isStageMs, stagesProblem } from './canary-stages.ts';
import { ReleaseRefused } from './refusal.ts';
import { isArea, isPart, isVersionName, type AreaName, type PartName, type Provenance } from './registry.ts';
import type { DeployMode, OriginPart } from './deploy.ts';
import type { MoveResult } from './registry-moves.ts';
import type { SigningKey, TrustedKey } from './signing.ts';
import type { ReleaseStorage } from './storage.ts';

export const REQUESTS_PREFIX = 'builds/requests';
/** A request is small: anything larger is refused before it is parsed. */
export const MOVE_REQUEST_MAX_BYTES = 16 * 1024;
/** How long after signing a request is still applied (a request queued for the server's next start included). */
export const MOVE_REQUEST_MAX_AGE_MS = 60 * 60_000;
const CLOCK_SKEW_MS = 5 * 60_000;

export type MoveCommand =
  | { op: 'deploy'; parts: OriginPart[]; mode: DeployMode; onlyNew?: boolean; overridePin?: boolean; init?: boolean }
  | { op: 'rollback'; part: PartName; to: string | null }
  | { op: 'pin' | 'unpin'; part: PartName }
  | { op: 'promote' | 'abort'; area: AreaName; expectVersion?: string }
  /** An area's feature switch: on for `share` percent of browsers (0 off, 100 on); no version moves. */
  | { op: 'flag'; area: AreaName; name: string; share: number };

export type MoveRequest = {
  format: 1;
  kind: 'release-move';
  keyId: string;
  signedAt: string;
  nonce: string;
  /** The registry's revision the request was made against; null: a new shop (no registry yet). */
  baseRevision: string | null;
  command: MoveCommand;
  provenance: Provenance;
};
export type SignedMoveRequest = { text: string; signature: string };

/** What the server answers a request with (the file beside it on the origin, or an HTTP answer). */
export type MoveOutcome =
  | {
      ok: true;
      revision: string;
      results: MoveResult[];
      previewUrl?: string | null;
      /** A switch set (op `flag`): its share before (null: not in the table, so on) and after. */
      flag?: { area: string; name: string; before: number | null; after: number };
    }
  | { ok: false; code: string; message: string };

export function signMoveRequest(
  key: SigningKey,
  body: { baseRevision: string | null; command: MoveCommand; provenance: Provenance },
  now = Date.now(),
): SignedMoveRequest {
  const request: MoveRequest = {
    format: 1,
    kind: 'release-move',
    keyId: key.keyId,
    signedAt: new Date(now).toISOString(),
    nonce: randomBytes(16).toString('base64url'),
    baseRevision: body.baseRevision,
    command: body.command,
    provenance: body.provenance,
  };
  const text = JSON.stringify(request);
  return { text, signature: sign(null, Buffer.from(text, 'utf8'), key.privateKey).toString('base64') };
}

/** The parts a command moves. */
export function partsOf(command: MoveCommand): PartName[] {
  if (command.op === 'deploy') return command.parts.map((item) => item.part);
  if ('area' in command) return [command.area];
  return [command.part];
}

const refuse = (message: string): never => {
  throw new ReleaseRefused('bad_signature', `${message} Nothing was changed.`);
};

const text = (value: unknown, max: number) => typeof value === 'string' && value.length <= max;
const optionalText = (value: unknown, max: number) => value === undefined || value === null || text(value, max);

function checkCommand(command: MoveCommand): void {
  const ok = (() => {
    switch (command?.op) {
      case 'deploy': {
        const mode = command.mode;
        const modeOk =
          mode?.kind === 'live' ||
          mode?.kind === 'publish' ||
          (mode?.kind === 'canary' &&
            Number.isInteger(mode.share) &&
            mode.share >= 1 &&
            mode.share <= 99 &&
            (mode.stages === undefined ||
              (Array.isArray(mode.stages) && stagesProblem(mode.stages) === null && mode.stages[0] === mode.share)) &&
            (mode.stageMs === undefined || isStageMs(mode.stageMs)) &&
            (mode.autoPromote === undefined || typeof mode.autoPromote === 'boolean'));
        return (
          modeOk &&
          Array.isArray(command.parts) &&
          command.parts.length >= 1 &&
          command.parts.length <= 5 &&
          command.parts.every(
            (item) =>
              isPart(String(item?.part)) &&
              isVersionName(String(item?.version)) &&
              (item.budgetBytes === undefined || item.budgetBytes === null || Number.isSafeInteger(item.budgetBytes)),
          )
        );
      }
      case 'rollback':
        return isPart(String(command.part)) && (command.to === null || isVersionName(String(command.to)));
      case 'pin':
      case 'unpin':
        return isPart(String(command.part));
      case 'promote':
      case 'abort':
        return isArea(String(command.area)) && (command.expectVersion === undefined || isVersionName(String(command.expectVersion)));
      case 'flag':
        return (
          isArea(String(command.area)) &&
          isFlagName(String(command.name)) &&
          typeof command.share === 'number' &&
          isFlagShare(command.share)
        );
      default:
        return false;
    }
  })();
  if (!ok) refuse('The move request names no valid command.');
}

/**
 * The request, when signed by one of `keys` allowed to move every part it names, recently, in a
 * known shape; otherwise refused ('bad_signature'). Replays and the revision are the caller's.
 */
export function verifyMoveRequest(signed: SignedMoveRequest, keys: readonly TrustedKey[], now = Date.now()): MoveRequest {
  if (typeof signed?.text !== 'string' || Buffer.byteLength(signed.text, 'utf8') > MOVE_REQUEST_MAX_BYTES)
    refuse('The move request is too large.');
  if (typeof signed.signature !== 'string' || !/^[A-Za-z0-9+/]{86}==$/.test(signed.signature.trim()))
    refuse('The move request has no valid signature.');
  let request: MoveRequest;
  try {
    request = JSON.parse(signed.text) as MoveRequest;
  } catch {
    return refuse('The move request is not valid JSON.');
  }
  if (request?.format !== 1 || request.kind !== 'release-move') refuse('The move request has an unknown format.');
  const key = keys.find((candidate) => candidate.keyId === request.keyId);
  if (!key) refuse(`The move request is signed with a key the shop does not accept (${String(request.keyId).slice(0, 20)}).`);
  if (!verify(null, Buffer.from(signed.text, 'utf8'), createPublicKey(key!.publicKey), Buffer.from(signed.signature.trim(), 'base64')))
    refuse('The move request’s signature does not match it.');
  checkCommand(request.command);
  for (const part of partsOf(request.command)) {
    if (key!.area !== null && key!.area !== part) refuse(`The key of ${key!.owner} may move only ${key!.area}, not ${part}.`);
  }
  const provenance = request.provenance;
  if (
    !text(provenance?.who, 200) ||
    !optionalText(provenance.reason, 500) ||
    !optionalText(provenance.commit, 40) ||
    !(provenance.dirty === undefined || provenance.dirty === null || typeof provenance.dirty === 'boolean')
  )
    refuse('The move request names no valid author.');
  if (!(request.baseRevision === null || text(request.baseRevision, 20))) refuse('The move request names no valid revision.');
  const signedAt = Date.parse(String(request.signedAt));
  if (!Number.isFinite(signedAt) || signedAt > now + CLOCK_SKEW_MS || now - signedAt > MOVE_REQUEST_MAX_AGE_MS)
    refuse(`The move request was signed at ${String(request.signedAt).slice(0, 40)}; one is applied within an hour of signing.`);
  return request;
}

export const requestKey = (name: string) => `${REQUESTS_PREFIX}/${name}`;
export const outcomeKey = (name: string) => `${REQUESTS_PREFIX}/${name.replace(/\.json$/, '')}.outcome.json`;
/** A request's file name: when it was made first, so requests are applied in the order they were made. */
export const isRequestName = (name: string) => /^\d{13}-[A-Za-z0-9_-]{22}\.json$/.test(name);

/**
 * Writes a request to the origin for the server to apply, and (unless `wait` is 0) waits for its
 * outcome: null when no server answered in time (it is applied when one next reads the origin).
 */
export async function submitMoveRequest(
  storage: ReleaseStorage,
  signed: SignedMoveRequest,
  options: { waitMs: number; pollMs?: number },
): Promise<MoveOutcome | null> {
  const request = JSON.parse(signed.text) as MoveRequest;
  const name = `${Date.parse(request.signedAt)}-${request.nonce}.json`;
  await storage.writeTextAtomic(requestKey(name), JSON.stringify(signed));
  const deadline = Date.now() + options.waitMs;
  while (Date.now() < deadline) {
    const outcome = await storage.readText(outcomeKey(name));
    if (outcome !== null) {
      await storage.remove(outcomeKey(name));
      return JSON.parse(outcome) as MoveOutcome;
    }
    await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 100));
  }
  return null;
}
