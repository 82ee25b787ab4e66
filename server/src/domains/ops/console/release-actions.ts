/**
 * The release moves of the operator console and of CI: rollback, pin, unpin, promote, abort, preview
 * links, uploads and floors, running the same release code as `pnpm release`. An operator (with a
 * fresh code: operatorAuth's `release` access) may move every part, an area team's credential only its
 * own area, and a team's rollback only signed with the team's own key; floors are the operator's alone.
 * Every move, allowed or refused, is in the audit log; a refusal of the release code is an ApiError
 * with the refusal's code (`error.refusal`), which the release command reads.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { opsCalls } from '@shop/shared-kernel/schemas';
import {
  deploy,
  DEFAULT_STAGE_MS,
  stagesProblem,
  finishCanary,
  rollback,
  setPin,
  type DeployMode,
  ReleaseRefused,
  isArea,
  isPart,
  type AreaName,
  type PartName,
  type Provenance,
  type ReleaseStorage,
  previewLink,
  UPLOAD_BODY_LIMIT,
  unpackBuild,
  type ReleaseIntegrity,
  type RegistryBook,
  verifyMoveRequest,
  assertNotFloored,
  checkLocalBuild,
  checkRelease,
  checkRoutes,
  localRelease,
  loopbackOrigin,
  type LocalBuild,
} from '@shop/release';
import { callRoute } from '../../../infra/http/contract-route.ts';
import { ApiError, forbidden, notFound } from '../../../infra/http/errors.ts';
import type { TeamActor, OperatorActor } from '../../../infra/auth/operator-auth.ts';
import type { ReleaseKeys } from '../../releases/release-keys.repository.ts';
import { verifyUpload } from '../../releases/signed-upload.ts';
import { MAX_OPEN_PREVIEWS, TooManyPreviews, type ReleasePreviews } from '../../releases/previews.repository.ts';

export type ReleaseActionOptions = {
  storage: ReleaseStorage;
  /** The registry in force (the database's, or the origin's files in tests). */
  book: RegistryBook;
  /** Marks a version never to be served again, or lifts the mark; absent: the floor route answers 404. */
  setFloor?: (change: { part: PartName; version: string; floored: boolean; by: string; reason: string | null }) => Promise<void>;
  /** Base of preview links (the shop's public address). */
  publicUrl: string;
  /** The preview links the server keeps: made here, listed and revoked one by one. */
  previews: ReleasePreviews;
  /** The keys whose signed manifests an upload may carry; without them every upload is refused. */
  keys?: ReleaseKeys;
  /** Checks a version's files against its signed manifest before a rollback or a promotion puts it in force. */
  integrity?: ReleaseIntegrity;
  /** A staged canary's stage time when its upload names none (CANARY_STAGE_MS). */
  canaryStageMs?: number;
};

const route = <K extends keyof typeof opsCalls>(name: K) => callRoute(opsCalls, name);
const INVALID_BUILD = new Set([
  'broken_build',
  'bad_signature',
  'missing_module',
  'incompatible_kernel',
  'incompatible_react',
  'over_budget',
  'route_clash',
]);

/** The release code's refusal as the one error shape, with its code for the release command. */
function refused(error: unknown): never {
  if (!(error instanceof ReleaseRefused)) throw error;
  const status =
    error.code === 'unknown_version' ? 404 : error.code === 'signature_required' ? 403 : INVALID_BUILD.has(error.code) ? 422 : 409;
  throw new ApiError(status, 'conflict', error.message, error.code);
}

const unknownPart = (part: string) => notFound(`Neznáma časť obchodu: ${part.slice(0, 20)}`);

/** The operator or the team acting (operatorAuth's `release` access lets no one else through). */
export const releaseActor = (request: FastifyRequest) => request.actor as OperatorActor | TeamActor;

/**
 * The operator may act on every part, a team only on its own area. Every release action is audited,
 * allowed or not; a refusal is 403.
 */
export async function authorizePart(request: FastifyRequest, action: string, part: string): Promise<void> {
  const actor = releaseActor(request);
  const allowed = actor.kind === 'operator' || actor.area === part;
  await request.audit({ action, part: part.slice(0, 20), allowed });
  if (!allowed) throw forbidden(`Tento prístup nesmie meniť časť ${part.slice(0, 20)}: patrí tímu oblasti ${(actor as TeamActor).area}.`);
}

/** History names who moved a part: the team's credential, or the signed-in operator. */
const provenance = (request: FastifyRequest, reason?: string): Provenance => ({
  who: releaseActor(request).name,
  reason: reason?.trim() || null,
});

export const releaseActionRoutes: FastifyPluginAsync<ReleaseActionOptions> = async (plugin, options) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const { storage, book, previews } = options;

  /**
   * A new preview link of one area's version (`local`: a local override of the build it records),
   * for the one browser that opens it first; in the audit log.
   */
  async function newPreview(request: FastifyRequest, area: AreaName, version: string, local?: LocalBuild) {
    const made = await previews.create({ area, version, by: releaseActor(request).name, local }).catch((error: unknown) => {
      if (!(error instanceof TooManyPreviews)) throw error;
      throw new ApiError(
        409,
        'conflict',
        `Časť má otvorených už ${MAX_OPEN_PREVIEWS} náhľadov. Zrušte nepotrebné v konzole operátora a skúste to znova.`,
      );
    });
    await request.audit(
      local
        ? { action: 'override-link', part: area, detail: `${version} z ${local.origin} (lokálna zostava, náhľad ${made.id})` }
        : { action: 'preview-link', part: area, detail: `${version} (náhľad ${made.id})` },
    );
    return { id: made.id, url: previewLink(options.publicUrl, made.token), expires: made.expires };
  }

  /**
   * A team's rollback carries a move request signed with the team's own key (not the shop's, not
   * another team's), for this part and version, recent and never used before; otherwise refused.
   */
  async function requireTeamSignature(
    team: string,
    part: PartName,
    version: string | null,
    signed: { text: string; signature: string } | undefined,
  ): Promise<void> {
    if (!signed) {
      throw new ReleaseRefused(
        'signature_required',
        "A team's rollback must be signed with the team's key (pnpm release rollback … --server, RELEASE_SIGNING_KEY). Nothing was changed.",
      );
    }
    const own = (await options.keys?.trusted())?.filter((key) => key.owner === team) ?? [];
    const request = verifyMoveRequest(signed, own);
    const command = request.command;
    if (command.op !== 'rollback' || command.part !== part || command.to !== version) {
      throw new ReleaseRefused('bad_signature', 'The signed request is not this rollback (part or version differ). Nothing was changed.');
    }
    const fresh = await options.keys!.acceptSignature({
      signature: signed.signature,
      keyId: request.keyId,
      part,
      version: 'request:rollback',
    });
    if (!fresh)
      throw new ReleaseRefused('bad_signature', 'This signed rollback was used before: a replay is refused. Nothing was changed.');
  }

  /** Each release route names its action; refused ones stop here. */
  const releaseAction = (action: string) => async (request: FastifyRequest<{ Params: { part: string } }>) =>
    authorizePart(request, action, request.params.part);
  const config = (action: string) => ({ access: 'release' as const, action });

  app.route({
    ...route('POST /api/ops/releases/:part/rollback'),
    config: config('rollback'),
    preHandler: releaseAction('rollback'),
    handler: async (request) => {
      const { part } = request.params;
      if (!isPart(part)) throw unknownPart(part);
      const actor = releaseActor(request);
      // A team's credential alone may not roll back: the rollback must be signed with the team's own key.
      if (actor.kind === 'team')
        await requireTeamSignature(actor.name, part, request.body?.version ?? null, request.body?.signed).catch(refused);
      const result = await rollback({
        storage,
        book,
        part,
        to: request.body?.version ?? null,
        provenance: provenance(request, request.body?.reason),
        integrity: options.integrity,
      }).catch(refused);
      request.log.warn({ release: { action: 'rollback', ...result } }, 'release rolled back from the operator console');
      return { data: result };
    },
  });

  for (const action of ['pin', 'unpin'] as const) {
    app.route({
      ...route(`POST /api/ops/releases/:part/${action}`),
      config: config(action),
      preHandler: releaseAction(action),
      handler: async (request) => {
        const { part } = request.params;
        if (!isPart(part)) throw unknownPart(part);
        const pin = await setPin({
          storage,
          book,
          part,
          pinned: action === 'pin',
          provenance: provenance(request, request.body?.reason),
        }).catch(refused);
        return { data: { pinned: pin !== null } };
      },
    });
  }

  for (const outcome of ['promote', 'abort'] as const) {
    app.route({
      ...route(`POST /api/ops/releases/:part/${outcome}`),
      config: config(outcome),
      preHandler: releaseAction(outcome),
      handler: async (request) => {
        const { part } = request.params;
        if (!isArea(part)) throw unknownPart(part);
        const result = await finishCanary({
          storage,
          book,
          area: part,
          outcome,
          provenance: provenance(request, request.body?.reason),
          expectVersion: request.body?.version,
          integrity: options.integrity,
        }).catch(refused);
        request.log.warn(
          { release: { action: outcome, ...result } },
          `canary ${outcome === 'promote' ? 'promoted' : 'aborted'} from the operator console`,
        );
        return { data: result };
      },
    });
  }

  app.route({
    ...route('POST /api/ops/releases/:part/preview'),
    config: config('preview'),
    preHandler: releaseAction('preview'),
    handler: async (request) => {
      const { part } = request.params;
      if (!isArea(part)) throw unknownPart(part);
      if (!(await storage.exists(`remotes/${part}/${request.body.version}`)))
        throw notFound(`Verzia ${request.body.version} nie je na serveri.`);
      // A version marked never to be served again is previewed by no one either.
      const floors = await book.floors(part);
      try {
        assertNotFloored(floors, part, request.body.version);
      } catch (error) {
        refused(error);
      }
      return { data: await newPreview(request, part, request.body.version) };
    },
  });

  // A local override: a preview whose build the developer serves on loopback; the same checks against
  // the shell and areas in force as a release of it, the script digests recorded for the browser to check.
  app.route({
    ...route('POST /api/ops/releases/:part/override'),
    config: config('override'),
    bodyLimit: 512 * 1024,
    preHandler: releaseAction('override'),
    handler: async (request) => {
      const { part } = request.params;
      if (!isArea(part)) throw unknownPart(part);
      // A refused link is in the audit log with why, under the credential's name, and in the log.
      const refuse = async (error: unknown): Promise<never> => {
        const message = error instanceof ApiError || error instanceof ReleaseRefused ? error.message : null;
        if (message !== null) {
          await request.audit({ action: 'override-link', part, allowed: false, detail: message.slice(0, 300) });
          request.log.warn({ release: { action: 'override', part, refused: message } }, 'local override link refused');
        }
        return error instanceof ReleaseRefused ? refused(error) : Promise.reject(error);
      };
      if (!loopbackOrigin(request.body.origin))
        return refuse(
          new ApiError(
            400,
            'bad_request',
            'Lokálna zostava sa načítava len z vášho počítača: adresa musí byť http://127.0.0.1:<port> alebo http://localhost:<port>.',
          ),
        );
      let local: ReturnType<typeof checkLocalBuild>;
      try {
        local = checkLocalBuild(part, request.body);
        const registry = await book.read();
        const { kernel, react, exposes, routes, entry } = local.build;
        // Its size is not judged: it is one developer's browser, not the shoppers'.
        await checkRelease(storage, registry, [{ build: { kind: 'area', area: part, kernel, react, exposes, routes, entry, jsBytes: 0 } }]);
        const canaries = { ...registry.canaries };
        delete canaries[part];
        checkRoutes({ ...registry, areas: { ...registry.areas, [part]: localRelease(part, local.version, local.build) }, canaries });
      } catch (error) {
        return refuse(error);
      }
      request.log.warn(
        { release: { action: 'override', part, version: local.version, origin: local.build.origin } },
        'local override link made',
      );
      return { data: await newPreview(request, part, local.version, local.build) };
    },
  });

  // The previews that last, each revocable: an operator sees all, a team its own area's.
  app.route({
    ...route('GET /api/ops/releases/previews'),
    config: config('previews'),
    handler: async (request) => {
      const actor = releaseActor(request);
      return { data: await previews.lasting(actor.kind === 'team' ? { area: actor.area } : {}) };
    },
  });

  app.route({
    ...route('POST /api/ops/releases/previews/:id/revoke'),
    config: config('preview-revoke'),
    handler: async (request) => {
      const actor = releaseActor(request);
      const shown = (await previews.lasting(actor.kind === 'team' ? { area: actor.area } : {})).find((p) => p.id === request.params.id);
      const revoked = shown ? await previews.revoke(shown.id, actor.name) : null;
      await request.audit({
        action: 'preview-revoke',
        part: shown?.area ?? null,
        allowed: revoked !== null,
        detail: `náhľad ${request.params.id}${shown ? ` (${shown.version}${shown.local ? `, lokálna zostava z ${shown.local}` : ''})` : ''}${request.body?.reason ? `: ${request.body.reason}` : ''}`,
      });
      // Another team's preview is as unknown to a team as one that never was.
      if (!revoked) throw notFound('Taký náhľad neplatí: skončil, vypršal alebo patrí inej časti.');
      request.log.warn({ release: { action: 'preview-revoke', id: request.params.id, ...revoked } }, 'preview revoked');
      return { data: { id: request.params.id, ...revoked } };
    },
  });

  // A CI release without file access to the origin: the build comes in the body and runs the same checks.
  app.route({
    ...route('POST /api/ops/releases/:part/upload'),
    config: config('upload'),
    bodyLimit: UPLOAD_BODY_LIMIT,
    preHandler: releaseAction('upload'),
    handler: async (request) => {
      const { part } = request.params;
      if (!isPart(part)) throw unknownPart(part);
      const body = request.body;
      if (body.mode === 'canary' && !body.share) throw new ApiError(400, 'bad_request', 'Kanárske vydanie potrebuje podiel (share).');
      if (body.stages && (body.mode !== 'canary' || stagesProblem(body.stages) !== null || body.stages[0] !== body.share))
        throw new ApiError(
          400,
          'bad_request',
          'Postupné kanárske vydanie potrebuje 1 až 5 podielov od 1 do 99 %, každý väčší ako predošlý, prvý rovný podielu (share).',
        );
      const mode: DeployMode =
        body.mode === 'canary'
          ? {
              kind: 'canary',
              share: body.share!,
              ...(body.stages
                ? {
                    stages: body.stages,
                    stageMs: body.stageMs ?? options.canaryStageMs ?? DEFAULT_STAGE_MS,
                    autoPromote: body.autoPromote === true,
                  }
                : {}),
            }
          : { kind: body.mode };
      const actor = releaseActor(request);
      const dir = await mkdtemp(join(tmpdir(), `release-upload-${part}-`));
      try {
        await unpackBuild(body, dir).catch(refused);
        if (!options.keys)
          refused(new ReleaseRefused('bad_signature', 'This server accepts no signed uploads (no release keys). Nothing was changed.'));
        await verifyUpload({
          keys: options.keys,
          actor,
          part,
          dir,
          packageVersion: body.packageVersion,
          manifest: body.manifest,
        }).catch(async (error: unknown) => {
          if (error instanceof ReleaseRefused) await request.audit({ action: 'upload', part, allowed: false, detail: error.message });
          refused(error);
        });
        const result = await deploy({
          storage,
          book,
          part: part as PartName,
          distDir: dir,
          packageVersion: body.packageVersion,
          budgetBytes: body.budgetBytes,
          mode,
          overridePin: body.overridePin === true,
          signed: body.manifest,
          // The credential or the operator names who released; what the uploader says of itself is kept beside it.
          provenance: {
            who: `${actor.name} (${body.who}, upload)`,
            reason: body.reason ?? null,
            commit: body.commit ?? null,
            dirty: body.dirty ?? null,
          },
        }).catch(refused);
        request.log.warn({ release: { action: `upload ${mode.kind}`, ...result } }, 'release uploaded');
        const previewUrl = mode.kind === 'publish' && isArea(part) ? (await newPreview(request, part, result.version)).url : null;
        return { data: { result, previewUrl } };
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  });

  const { setFloor } = options;
  if (setFloor) {
    app.route({
      ...route('POST /api/ops/releases/:part/floor'),
      config: config('floor'),
      preHandler: async (request) => {
        // Marking and lifting are the operator's: a team's credential is refused (and audited; an
        // operator's mark or lift is audited by setFloor, in the same transaction as the change).
        if (releaseActor(request).kind === 'operator') return;
        await request.audit({ action: 'floor', part: request.params.part.slice(0, 20), allowed: false, detail: 'len operátor' });
        throw forbidden('Verziu môže označiť alebo odznačiť len operátor.');
      },
      handler: async (request) => {
        const { part } = request.params;
        if (!isPart(part)) throw unknownPart(part);
        const { version, floored } = request.body;
        await setFloor({ part, version, floored, by: releaseActor(request).name, reason: request.body.reason?.trim() || null }).catch(
          refused,
        );
        request.log.warn(
          { release: { action: floored ? 'floor' : 'floor-lift', part, version } },
          'release floor changed from the operator console',
        );
        return { data: { part, version, floored } };
      },
    });
  }
};
