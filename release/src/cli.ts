/**
 * The release command (`pnpm release …` at the repository root): every command and option, with an
 * example each, is in `pnpm release --help` and `pnpm release <command> --help` (./cli-help.ts).
 * With S3_BUCKET set, releases live in that bucket (S3_ENDPOINT, S3_REGION, S3_PREFIX, as the
 * server reads them) and --origin is only where its local cache goes (DIR/.s3-cache).
 * Every build's manifest is signed: RELEASE_SIGNING_KEY, else the shop's key in the data directory.
 * Who: RELEASE_USER, else git's user.name. A refusal prints why and exits 2; nothing is changed.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join, resolve } from 'node:path';
import { isFlagName, isFlagShare } from '@shop/shared-kernel/rules';
import { parseStageMinutes, parseStages } from './canary-stages.ts';
import { helpAsked } from './cli-help.ts';
import { ReleaseRefused } from './refusal.ts';
import type { DeployMode, PartInput } from './deploy.ts';
import type { MoveResult } from './registry-moves.ts';
import { history, status } from './status.ts';
import { uploadVersion } from './upload-version.ts';
import { hashBuild } from './build-info.ts';
import { withReleaseLock } from './lock.ts';
import { signMoveRequest, submitMoveRequest, type MoveCommand, type MoveOutcome } from './move-request.ts';
import {
  AREAS,
  isArea,
  isPart,
  PARTS,
  partFolder,
  readRegistry,
  REGISTRY_KEY,
  registryExists,
  type PartName,
  type Provenance,
} from './registry.ts';
import { storageFromEnv } from './storage-from-env.ts';
import type { ReleaseStorage } from './storage.ts';
import { uploadRelease, sendSignedRollback } from './upload-client.ts';
import { localBuildOf, requestOverride, revokeOverride, serveLocalBuild } from './override-command.ts';
import { assertOutsideShop, loadReleaseSigningKey, ownerKeyFile } from './shop-key.ts';
import { shopDataDir, shopOriginDir, workspaceRoot } from './shop-places.ts';
import { digestBuild, signManifest, type SigningKey } from './signing.ts';

const root = workspaceRoot();
const userDir = process.env.INIT_CWD ?? process.cwd();
const print = (line: string) => process.stdout.write(`[release] ${line}\n`);

type Options = {
  origin: string;
  dist: string | null;
  build: boolean;
  canary: number | null;
  /** A staged canary's shares (`--stages`), its stage time (`--stage-min`, ms) and what follows its last stage. */
  stages: number[] | null;
  stageMs: number | null;
  autoPromote: boolean;
  preview: boolean;
  overridePin: boolean;
  onlyNew: boolean;
  init: boolean;
  wait: boolean;
  reason: string | null;
  server: string | null;
  /** `override`: the loopback port the local build is served on (0: any free one). */
  port: number;
  positional: string[];
};

function parse(args: string[]): Options {
  const options: Options = {
    origin: shopOriginDir(process.env, root),
    dist: null,
    build: true,
    canary: null,
    stages: null,
    stageMs: null,
    autoPromote: false,
    preview: false,
    overridePin: false,
    onlyNew: false,
    init: false,
    wait: true,
    reason: null,
    server: null,
    port: 0,
    positional: [],
  };
  const value = (index: number, name: string) => {
    const given = args[index];
    if (given === undefined || given.startsWith('--')) throw new Error(`${name} needs a value`);
    return given;
  };
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index]!;
    if (arg === '--origin') options.origin = resolve(userDir, value(++index, arg));
    else if (arg === '--dist') options.dist = resolve(userDir, value(++index, arg));
    else if (arg === '--reason') options.reason = value(++index, arg).slice(0, 500);
    else if (arg === '--server') options.server = value(++index, arg);
    else if (arg === '--port') {
      const port = Number(value(++index, arg));
      if (!Number.isInteger(port) || port < 0 || port > 65_535)
        throw new Error('--port takes a port number from 1 to 65535 (0: any free one)');
      options.port = port;
    } else if (arg === '--canary') {
      const share = Number(value(++index, arg));
      if (!Number.isInteger(share) || share < 1 || share > 99) throw new Error('--canary takes a whole percentage from 1 to 99');
      options.canary = share;
    } else if (arg === '--stages') options.stages = parseStages(value(++index, arg));
    else if (arg === '--stage-min') options.stageMs = parseStageMinutes(value(++index, arg));
    else if (arg === '--auto-promote') options.autoPromote = true;
    else if (arg === '--no-build') options.build = false;
    else if (arg === '--preview') options.preview = true;
    else if (arg === '--override-pin') options.overridePin = true;
    else if (arg === '--only-new') options.onlyNew = true;
    else if (arg === '--init') options.init = true;
    else if (arg === '--no-wait') options.wait = false;
    else if (arg.startsWith('--')) throw new Error(`Unknown option ${arg}`);
    else options.positional.push(arg);
  }
  if (options.stages && options.canary) throw new Error('--stages names every share of the canary, its first one too: leave out --canary');
  if (!options.stages && (options.stageMs !== null || options.autoPromote))
    throw new Error('--stage-min and --auto-promote go with --stages, e.g. --stages 5,25,50 --stage-min 30 --auto-promote');
  return options;
}

const partDir = (part: PartName) => join(root, partFolder(part));

async function partPackage(part: PartName): Promise<{ version: string; shop?: { jsBudgetKb?: number } }> {
  return JSON.parse(await readFile(join(partDir(part), 'package.json'), 'utf8'));
}

function git(args: string[]): string | null {
  const result = spawnSync('git', args, { cwd: root, encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : null;
}

/** Who releases (RELEASE_USER, else git's user.name and e-mail, else the OS user), from which commit, and whether the tree had changes. */
function provenance(reason: string | null): Provenance {
  const name = git(['config', 'user.name']);
  const email = git(['config', 'user.email']);
  const who = process.env.RELEASE_USER || (name ? `${name}${email ? ` <${email}>` : ''}` : userInfo().username);
  const commit = git(['rev-parse', '--short=12', 'HEAD']);
  const porcelain = commit ? git(['status', '--porcelain', '--untracked-files=no']) : null;
  return { who: who.slice(0, 200), reason, commit, dirty: porcelain === null ? null : porcelain !== '' };
}

function describe(result: MoveResult): string {
  if (result.left) return `${result.part} left at ${result.from ?? 'none'}: ${result.left}`;
  return result.changed
    ? `${result.part} → ${result.version} (was ${result.from ?? 'none'})`
    : `${result.part} ${result.version} already in force`;
}

/** Builds a part into a directory of its own, so two releases of one area never write into one dist/. */
async function build(part: PartName): Promise<string> {
  const outDir = await mkdtemp(join(tmpdir(), `release-build-${part}-`));
  print(`building ${part} into ${outDir}…`);
  const built = spawnSync('pnpm', ['--filter', `./${partFolder(part)}`, 'exec', 'vite', 'build', '--outDir', outDir, '--emptyOutDir'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (built.status !== 0) {
    await rm(outDir, { recursive: true, force: true });
    throw new ReleaseRefused('broken_build', `The ${part} build failed. Nothing was changed.`);
  }
  return outDir;
}

async function partInput(part: PartName, distDir: string): Promise<PartInput> {
  const pkg = await partPackage(part);
  return { part, distDir, packageVersion: pkg.version, budgetBytes: pkg.shop?.jsBudgetKb ? pkg.shop.jsBudgetKb * 1024 : null };
}

/**
 * RELEASE_SIGNING_KEY (a team's key, from `npm run credentials -- create`), or the owner's release key
 * (RELEASE_SIGNING_KEY_FILE, else ~/.config/stavebniny/release-signing-key.pem), never one in the
 * shop's data directory or origin; made only by the owner's `npm run credentials -- shop-key-create`.
 */
async function signingKey(origin?: string): Promise<SigningKey> {
  if (!process.env.RELEASE_SIGNING_KEY?.trim())
    assertOutsideShop(ownerKeyFile(process.env), { dataDir: shopDataDir(process.env, root), ...(origin ? { originDir: origin } : {}) });
  return loadReleaseSigningKey(process.env);
}

/** How long the command waits for the shop's server to apply a request (RELEASE_APPLY_WAIT_MS, default 60 s). */
const applyWaitMs = () => Math.max(0, Number(process.env.RELEASE_APPLY_WAIT_MS ?? 60_000) || 60_000);

/**
 * A move on the origin: signed and left in `builds/requests/` for the shop's server, which keeps the
 * registry in force in its database, checks everything again and applies it (or refuses, with why).
 * The origin's lock is held meanwhile, so two commands never ask against the same revision.
 */
async function requestMove(
  storage: ReleaseStorage,
  options: Options,
  command: MoveCommand,
  provenance: Provenance,
  before?: () => Promise<void>,
): Promise<MoveOutcome | null> {
  const key = await signingKey(options.origin);
  return withReleaseLock(storage, `request ${command.op}`, async () => {
    await before?.();
    // The export the server keeps of the registry in force: only the revision the request is made against.
    const baseRevision = (await registryExists(storage)) ? (await readRegistry(storage)).revision : null;
    const signed = signMoveRequest(key, { baseRevision, command, provenance });
    const outcome = await submitMoveRequest(storage, signed, { waitMs: options.wait ? applyWaitMs() : 0 });
    if (outcome === null) {
      print(
        options.wait
          ? `no server of the shop applied the request within ${applyWaitMs() / 1000} s; it stays in ${storage.location('builds/requests')} and is applied when a server next reads the origin (its start, or within seconds while one runs)`
          : `request queued in ${storage.location('builds/requests')}: the shop's server applies it when it starts (or within seconds while one runs)`,
      );
      return null;
    }
    if (!outcome.ok) throw new ReleaseRefused(outcome.code as never, outcome.message);
    return outcome;
  });
}

/** `on`, `off` or a whole percentage of browsers (0-100). */
function flagShareOf(value: string | undefined): number {
  if (value === 'on') return 100;
  if (value === 'off') return 0;
  const share = Number(value);
  if (value === undefined || !/^\d{1,3}$/.test(value) || !isFlagShare(share))
    throw new Error('Say on, off, or a share of browsers from 0 to 100');
  return share;
}

const shareWords = (share: number | null) => (share === null || share >= 100 ? 'on' : share <= 0 ? 'off' : `on for ${share} %`);

function requirePart(value: string | undefined): PartName {
  if (!value || !isPart(value)) throw new Error(`Name a part: ${PARTS.join(', ')}`);
  return value;
}

async function deployCommand(options: Options, storage: ReleaseStorage): Promise<void> {
  const target = options.positional[0];
  // `all` releases every part as one set, checked together and moved in one registry write.
  const parts = target === 'all' ? ([...AREAS, 'shell'] as PartName[]) : [requirePart(target)];
  if (target === 'all' && (options.dist || options.canary || options.stages || options.preview || options.server)) {
    throw new Error('deploy all takes no --dist, --canary, --stages, --preview or --server: release parts one by one');
  }
  if (options.stages && options.preview) throw new Error('--stages and --preview exclude each other');
  const mode: DeployMode = options.stages
    ? {
        kind: 'canary',
        share: options.stages[0]!,
        stages: options.stages,
        ...(options.stageMs !== null ? { stageMs: options.stageMs } : {}),
        autoPromote: options.autoPromote,
      }
    : options.canary
      ? { kind: 'canary', share: options.canary }
      : options.preview
        ? { kind: 'publish' }
        : { kind: 'live' };
  const built: string[] = [];
  try {
    const dists: string[] = [];
    for (const part of parts) {
      if (options.dist) dists.push(options.dist);
      else if (options.build) {
        built.push(await build(part));
        dists.push(built.at(-1)!);
      } else dists.push(join(partDir(part), 'dist'));
    }
    const inputs = await Promise.all(parts.map((part, index) => partInput(part, dists[index]!)));
    const who = provenance(options.reason);
    if (options.server) {
      const answer = await uploadRelease({
        server: options.server,
        token: process.env.RELEASE_TOKEN ?? '',
        input: inputs[0]!,
        mode,
        overridePin: options.overridePin,
        provenance: who,
        // An upload is signed with the team's key; a shop key is never made on a CI machine.
        signingKey: await signingKey(),
      });
      print(describe(answer.result));
      if (answer.previewUrl) print(`preview link (this browser only): ${answer.previewUrl}`);
      return;
    }
    // A mistyped DATA_DIR must not start a new shop: the origin has the server's export unless --init.
    if (!options.init && !(await registryExists(storage))) {
      throw new ReleaseRefused(
        'no_registry',
        `There is no release registry on this origin (${storage.location(REGISTRY_KEY)}). Check DATA_DIR or --origin; to start a new origin, pass --init. Nothing was changed.`,
      );
    }
    const key = await signingKey(options.origin);
    const versions = await Promise.all(inputs.map(async (input) => `${input.packageVersion}-${await hashBuild(input.distDir)}`));
    const outcome = await requestMove(
      storage,
      options,
      {
        op: 'deploy',
        parts: inputs.map((input, index) => ({ part: input.part, version: versions[index]!, budgetBytes: input.budgetBytes ?? null })),
        mode,
        onlyNew: options.onlyNew,
        overridePin: options.overridePin,
        init: options.init,
      },
      who,
      // The files first, each version with its signed manifest: the server checks them before it moves anything.
      async () => {
        for (const [index, input] of inputs.entries()) {
          const signed = signManifest(key, { part: input.part, version: versions[index]!, files: await digestBuild(input.distDir) });
          await uploadVersion(storage, input.part, versions[index]!, input.distDir, signed);
        }
      },
    );
    if (!outcome?.ok) return;
    for (const result of outcome.results) {
      print(
        mode.kind === 'publish' ? `${result.part} ${result.version} published; ${result.from ?? 'none'} stays in force` : describe(result),
      );
    }
    if (mode.kind === 'publish') {
      print(
        outcome.previewUrl
          ? `published, in force for nobody; preview link (this browser only): ${outcome.previewUrl}`
          : 'published, in force for nobody; get a preview link in the operator console',
      );
    }
  } finally {
    for (const dir of built) await rm(dir, { recursive: true, force: true });
  }
}

/**
 * A local override: the area's build (built here unless --dist) served on loopback for the one
 * browser that opens the link the shop makes, until Ctrl+C; then the link is revoked.
 */
async function overrideCommand(options: Options): Promise<void> {
  const area = options.positional[0];
  if (!area || !isArea(area)) throw new Error(`Name an area: ${AREAS.join(', ')}`);
  const server = options.server ?? process.env.OPS_URL ?? null;
  if (!server) throw new Error("Name the shop's operator origin: --server URL (or OPS_URL)");
  const token = process.env.RELEASE_TOKEN ?? '';
  const built = options.dist ? null : options.build ? await build(area) : null;
  const dist = options.dist ?? built ?? join(partDir(area), 'dist');
  try {
    const { version: packageVersion } = await partPackage(area);
    // The port first: the link names the loopback origin the browser will load from.
    const served = await serveLocalBuild({ area, dir: dist, port: options.port });
    let link: { id: string; url: string; expires: string };
    let local: Awaited<ReturnType<typeof localBuildOf>>;
    try {
      local = await localBuildOf(area, dist, packageVersion, served.origin);
      served.publish(local.version, Object.keys(local.build.files));
      link = await requestOverride({ server, token, area, version: local.version, build: local.build });
    } catch (error) {
      served.server.close();
      throw error;
    }
    served.allow(new URL(link.url).origin);
    print(
      `${area} ${local.version} served on ${served.origin} (this machine only), every script checked in the browser against the digests the link recorded`,
    );
    print(`local override link (this browser only, until ${link.expires}): ${link.url}`);
    print('Ctrl+C stops serving and revokes the link; a file changed from now on does not run (make a new link)');
    await new Promise<void>((resolve) => {
      const stop = () => resolve();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    served.server.closeAllConnections();
    served.server.close();
    await revokeOverride({ server, token, id: link.id }).then(
      () => print('link revoked; its browser gets the version in force from its next page'),
      (error: unknown) => print(`the link could not be revoked (${(error as Error).message}); revoke it in the operator console (Náhľady)`),
    );
  } finally {
    if (built) await rm(built, { recursive: true, force: true });
  }
}

async function main(argv: string[]) {
  const help = helpAsked(argv);
  if (help) {
    (help.ok ? process.stdout : process.stderr).write(help.text);
    process.exitCode = help.ok ? 0 : 1;
    return;
  }
  const [command, ...rest] = argv;
  const options = parse(rest);
  // The origin directory, or the S3 bucket S3_BUCKET names (then --origin holds only its cache).
  const storage = storageFromEnv(process.env, options.origin);
  const who = () => provenance(options.reason);
  switch (command) {
    case 'deploy':
      return deployCommand(options, storage);
    case 'override':
      return overrideCommand(options);
    case 'rollback': {
      const part = requirePart(options.positional[0]);
      const rollbackCommand: MoveCommand = { op: 'rollback', part, to: options.positional[1] ?? null };
      // A team's rollback on a running shop carries the team's signature (its credential alone may not roll back).
      const outcome = options.server
        ? await sendSignedRollback({
            server: options.server,
            token: process.env.RELEASE_TOKEN ?? '',
            request: signMoveRequest(await signingKey(), { baseRevision: null, command: rollbackCommand, provenance: who() }),
            part,
            version: options.positional[1] ?? null,
            reason: options.reason,
          })
        : await requestMove(storage, options, rollbackCommand, who());
      if (!outcome?.ok) return;
      const result = outcome.results[0]!;
      print(
        `${describe(result)}; pinned at ${result.version}; ${result.from ?? 'none'} is marked never to be served again (release unpin ${part} lets deploys move it again)`,
      );
      return;
    }
    case 'promote':
    case 'abort': {
      const area = options.positional[0];
      if (!area || !isArea(area)) throw new Error(`Name an area: ${AREAS.join(', ')}`);
      const outcome = await requestMove(storage, options, { op: command, area }, who());
      if (outcome?.ok) print(describe(outcome.results[0]!));
      return;
    }
    case 'pin':
    case 'unpin': {
      const part = requirePart(options.positional[0]);
      const outcome = await requestMove(storage, options, { op: command, part }, who());
      if (outcome?.ok) print(command === 'pin' ? `${part} pinned at ${outcome.results[0]!.version}` : `${part} unpinned`);
      return;
    }
    case 'flag': {
      const area = options.positional[0];
      if (!area || !isArea(area)) throw new Error(`Name an area: ${AREAS.join(', ')}`);
      const name = options.positional[1] ?? '';
      if (!isFlagName(name)) throw new Error('Name the switch: lower-case letters, digits and dashes, starting with a letter (at most 40)');
      const share = flagShareOf(options.positional[2]);
      const outcome = await requestMove(storage, options, { op: 'flag', area, name, share }, who());
      if (outcome?.ok && outcome.flag)
        print(
          `${area} ${name}: ${shareWords(outcome.flag.before)} -> ${shareWords(outcome.flag.after)} (open pages follow within seconds)`,
        );
      return;
    }
    case 'status': {
      const current = await status(storage);
      if (!current.registry)
        print(
          `no release registry at ${storage.location(REGISTRY_KEY)} (check ${storage.local ? 'DATA_DIR or --origin' : 'S3_BUCKET and S3_PREFIX'})`,
        );
      print(`registry revision ${current.revision} (as the shop's server last exported it; /ops shows the registry in force)`);
      if (current.lock)
        print(
          `lock held by pid ${current.lock.pid} on ${current.lock.host} since ${current.lock.since}: ${current.lock.what}${current.lock.stale ? ` (stale: ${current.lock.staleBecause})` : ''}`,
        );
      for (const part of current.parts) {
        const notes = [
          part.pin ? `PINNED by ${part.pin.by}${part.pin.reason ? ` (${part.pin.reason})` : ''}` : '',
          part.canary
            ? `canary ${part.canary.version} at ${part.canary.share} %${part.canary.stages ? ` (stage ${part.canary.stages.index + 1} of ${part.canary.stages.shares.length}: ${part.canary.stages.shares.join(' → ')} %, since ${part.canary.stages.stageSince}${part.canary.stages.autoPromote ? ', then promoted' : ', then held for an operator'})` : ''}`
            : '',
          'version' in part.rollback ? `rollback → ${part.rollback.version}` : '',
          part.floors.length ? `never again: ${part.floors.map((floor) => floor.version).join(', ')}` : '',
        ].filter(Boolean);
        print(
          `${part.part.padEnd(9)} ${(part.version ?? '—').padEnd(20)} ${part.since ?? ''} ${part.by ?? ''} (kept: ${part.versionsKept.length})${notes.length ? ` · ${notes.join(' · ')}` : ''}`,
        );
      }
      return;
    }
    case 'history': {
      const part = options.positional[0] ? requirePart(options.positional[0]) : undefined;
      for (const entry of await history(storage, part)) {
        const source = entry.commit ? ` @${entry.commit}${entry.dirty ? '+dirty' : ''}` : '';
        print(
          `${entry.at} ${entry.who.padEnd(10)} ${entry.action.padEnd(8)} ${entry.part.padEnd(9)} ${entry.from ?? 'none'} → ${entry.to}${entry.share ? ` (${entry.share} %)` : ''}${source}${entry.reason ? ` — ${entry.reason}` : ''}`,
        );
      }
      return;
    }
    default:
      throw new Error(`Unknown command ${command}; see release --help`);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof ReleaseRefused) {
    process.stderr.write(`[release] refused (${error.code}): ${error.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`[release] ${(error as Error).message}\n`);
  process.exit(1);
});
