/**
 * The CI side of an upload release: packs a build, signs its manifest (every file's SHA-384 and
 * size) with the team's key, and sends both to a running shop (`POST /api/ops/releases/:part/upload`,
 * the team's release credential), which checks the signature and every file before the same checks
 * and moves as a release from the command line.
 */
import { ReleaseRefused, type RefusalCode } from './refusal.ts';
import type { DeployMode, PartInput } from './deploy.ts';
import type { MoveResult } from './registry-moves.ts';
import type { Provenance } from './registry.ts';
import { packBuild } from './upload-bundle.ts';
import { hashBuild } from './build-info.ts';
import { digestBuild, signManifest, type SigningKey } from './signing.ts';
import type { MoveOutcome, SignedMoveRequest } from './move-request.ts';

export async function uploadRelease(options: {
  server: string;
  token: string;
  input: PartInput;
  mode: DeployMode;
  overridePin: boolean;
  provenance: Provenance;
  signingKey: SigningKey;
}): Promise<{ result: MoveResult; previewUrl: string | null }> {
  if (!options.token) throw new Error("Set RELEASE_TOKEN (the area team's release credential) to upload a release to a running shop");
  const { files } = await packBuild(options.input.distDir);
  const { part, distDir, packageVersion } = options.input;
  const manifest = signManifest(options.signingKey, {
    part,
    version: `${packageVersion}-${await hashBuild(distDir)}`,
    files: await digestBuild(distDir),
  });
  const url = new URL(`/api/ops/releases/${options.input.part}/upload`, options.server);
  const response = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${options.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      packageVersion: options.input.packageVersion,
      budgetBytes: options.input.budgetBytes ?? null,
      mode: options.mode.kind,
      ...(options.mode.kind === 'canary'
        ? {
            share: options.mode.share,
            ...(options.mode.stages
              ? {
                  stages: options.mode.stages,
                  ...(options.mode.stageMs !== undefined ? { stageMs: options.mode.stageMs } : {}),
                  autoPromote: options.mode.autoPromote === true,
                }
              : {}),
          }
        : {}),
      overridePin: options.overridePin,
      who: options.provenance.who,
      reason: options.provenance.reason ?? null,
      commit: options.provenance.commit ?? null,
      dirty: options.provenance.dirty ?? null,
      files,
      manifest,
    }),
  });
  const body = (await response.json().catch(() => null)) as {
    data?: { result: MoveResult; previewUrl: string | null };
    error?: { code: string; message: string; refusal?: RefusalCode };
  } | null;
  if (response.ok && body?.data) return body.data;
  const message = body?.error?.message ?? `the shop answered ${response.status}`;
  if (body?.error?.refusal) throw new ReleaseRefused(body.error.refusal, message);
  throw new Error(`upload refused: ${message}`);
}

/**
 * A team's rollback on a running shop: its credential (RELEASE_TOKEN) and the rollback signed with
 * its key (RELEASE_SIGNING_KEY); the shop refuses a team's rollback without that signature.
 */
export async function sendSignedRollback(options: {
  server: string;
  token: string;
  request: SignedMoveRequest;
  part: string;
  version: string | null;
  reason: string | null;
}): Promise<MoveOutcome> {
  if (!options.token) throw new Error("Set RELEASE_TOKEN (the area team's release credential) to roll back on a running shop");
  const response = await fetch(new URL(`/api/ops/releases/${options.part}/rollback`, options.server), {
    method: 'POST',
    headers: { authorization: `Bearer ${options.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      ...(options.version ? { version: options.version } : {}),
      ...(options.reason ? { reason: options.reason } : {}),
      signed: options.request,
    }),
  });
  const body = (await response.json().catch(() => null)) as {
    data?: MoveResult;
    error?: { code: string; message: string; refusal?: RefusalCode };
  } | null;
  if (response.ok && body?.data) return { ok: true, revision: '', results: [body.data] };
  const message = body?.error?.message ?? `the shop answered ${response.status}`;
  if (body?.error?.refusal) throw new ReleaseRefused(body.error.refusal, message);
  throw new Error(`rollback refused: ${message}`);
}
