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
import { dirname, join, resolve } from 'node:path';
import { commandHelp, isCommand, overview } from './cli-help.ts';
import { ReleaseRefused } from './refusal.ts';
import {
  deploySet,
  finishCanary,
  history,
  rollback,
  setPin,
  status,
  type DeployMode,
  type MoveResult,
  type PartInput,
} from './releases.ts';
import { AREAS, isArea, isPart, PARTS, partFolder, REGISTRY_KEY, type PartName, type Provenance } from './registry.ts';
import { storageFromEnv } from './storage-from-env.ts';
import type { ReleaseStorage } from './storage.ts';
import { PREVIEW_SECRET_FILE, previewLink } from './preview.ts';
import { uploadRelease } from './upload-client.ts';
import { loadShopReleaseKey } from './shop-key.ts';
import { shopDataDir, shopOriginDir, shopPublicUrl, workspaceRoot } from './shop-places.ts';
import type { SigningKey } from './signing.ts';

const root = workspaceRoot();
const userDir = process.env.INIT_CWD ?? process.cwd();
const print = (line: string) => process.stdout.write(`[release] ${line}\n`);

type Options = {
  origin: string;
  dist: string | null;
  build: boolean;
  canary: number | null;
  preview: boolean;
  overridePin: boolean;
  onlyNew: boolean;
  init: boolean;
  reason: string | null;
  server: string | null;
  positional: string[];
};

function parse(args: string[]): Options {
  const options: Options = {
    origin: shopOriginDir(process.env, root),
    dist: null,
    build: true,
    canary: null,
    preview: false,
    overridePin: false,
    onlyNew: false,
    init: false,
    reason: null,
    server: null,
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
    else if (arg === '--canary') {
      const share = Number(value(++index, arg));
      if (!Number.isInteger(share) || share < 1 || share > 99) throw new Error('--canary takes a whole percentage from 1 to 99');
      options.canary = share;
    } else if (arg === '--no-build') options.build = false;
    else if (arg === '--preview') options.preview = true;
    else if (arg === '--override-pin') options.overridePin = true;
    else if (arg === '--only-new') options.onlyNew = true;
    else if (arg === '--init') options.init = true;
    else if (arg.startsWith('--')) throw new Error(`Unknown option ${arg}`);
    else options.positional.push(arg);
  }
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
 * RELEASE_SIGNING_KEY (a team's key, from `npm run credentials -- create`), or the shop's own release
 * key in its data directory: DATA_DIR, or with `--origin DIR` alone, DIR's parent (`npm start` keeps
 * the origin there). It is made only for a new origin (`--init`): a key made anywhere else would sign
 * a release no server accepts, and the part would disappear from the shop.
 */
function signingKey(options: { origin?: string; create: boolean }): Promise<SigningKey> {
  const dataDir = process.env.DATA_DIR || !options.origin ? shopDataDir(process.env, root) : dirname(options.origin);
  return loadShopReleaseKey(process.env, dataDir, { create: options.create });
}

function requirePart(value: string | undefined): PartName {
  if (!value || !isPart(value)) throw new Error(`Name a part: ${PARTS.join(', ')}`);
  return value;
}

async function deployCommand(options: Options, storage: ReleaseStorage): Promise<void> {
  const target = options.positional[0];
  // `all` releases every part as one set, checked together and moved in one registry write.
  const parts = target === 'all' ? ([...AREAS, 'shell'] as PartName[]) : [requirePart(target)];
  if (target === 'all' && (options.dist || options.canary || options.preview || options.server)) {
    throw new Error('deploy all takes no --dist, --canary, --preview or --server: release parts one by one');
  }
  const mode: DeployMode = options.canary
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
        signingKey: await signingKey({ create: false }),
      });
      print(describe(answer.result));
      if (answer.previewUrl) print(`preview link (this browser only): ${answer.previewUrl}`);
      return;
    }
    const results = await deploySet({
      storage,
      parts: inputs,
      provenance: who,
      mode,
      overridePin: options.overridePin,
      onlyNew: options.onlyNew,
      init: options.init,
      signingKey: await signingKey({ origin: options.origin, create: options.init }),
    });
    for (const result of results) {
      print(
        mode.kind === 'publish' ? `${result.part} ${result.version} published; ${result.from ?? 'none'} stays in force` : describe(result),
      );
    }
    if (mode.kind === 'publish') {
      const secret =
        process.env.PREVIEW_SECRET ??
        (await readFile(join(shopDataDir(process.env, root), PREVIEW_SECRET_FILE), 'utf8').catch(() => '')).trim();
      const result = results[0]!;
      print(
        secret && result.part !== 'shell'
          ? `published, in force for nobody; preview link (this browser only, 24 h): ${previewLink(shopPublicUrl(process.env), secret, { area: result.part, version: result.version })}`
          : 'published, in force for nobody; get a preview link in the operator console',
      );
    }
  } finally {
    for (const dir of built) await rm(dir, { recursive: true, force: true });
  }
}

/** `--help` (or `help [command]`) answers on stdout and exits 0; no command or an unknown one gets the overview on stderr and exits 1. */
function helpAsked(argv: string[]): { text: string; ok: boolean } | null {
  const [command, ...rest] = argv;
  const wantsHelp = (args: string[]) => args.includes('--help') || args.includes('-h');
  if (command === undefined) return { text: overview(), ok: false };
  if (command === 'help' || wantsHelp([command])) {
    const about = command === 'help' ? rest[0] : undefined;
    if (about === undefined) return { text: overview(), ok: true };
    return isCommand(about) ? { text: commandHelp(about), ok: true } : { text: `Unknown command ${about}\n\n${overview()}`, ok: false };
  }
  if (!isCommand(command)) return { text: `Unknown command ${command}\n\n${overview()}`, ok: false };
  return wantsHelp(rest) ? { text: commandHelp(command), ok: true } : null;
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
    case 'rollback': {
      const part = requirePart(options.positional[0]);
      const result = await rollback({ storage, part, to: options.positional[1] ?? null, provenance: who() });
      print(`${describe(result)}; pinned at ${result.version} (release unpin ${part} lets deploys move it again)`);
      return;
    }
    case 'promote':
    case 'abort': {
      const area = options.positional[0];
      if (!area || !isArea(area)) throw new Error(`Name an area: ${AREAS.join(', ')}`);
      print(describe(await finishCanary({ storage, area, outcome: command, provenance: who() })));
      return;
    }
    case 'pin':
    case 'unpin': {
      const part = requirePart(options.positional[0]);
      const pin = await setPin({ storage, part, pinned: command === 'pin', provenance: who() });
      print(pin ? `${part} pinned at ${pin.version}` : `${part} unpinned`);
      return;
    }
    case 'status': {
      const current = await status(storage);
      if (!current.registry)
        print(
          `no release registry at ${storage.location(REGISTRY_KEY)} (check ${storage.local ? 'DATA_DIR or --origin' : 'S3_BUCKET and S3_PREFIX'})`,
        );
      print(`registry revision ${current.revision}`);
      if (current.lock)
        print(
          `lock held by pid ${current.lock.pid} on ${current.lock.host} since ${current.lock.since}: ${current.lock.what}${current.lock.stale ? ` (stale: ${current.lock.staleBecause})` : ''}`,
        );
      for (const part of current.parts) {
        const notes = [
          part.pin ? `PINNED by ${part.pin.by}${part.pin.reason ? ` (${part.pin.reason})` : ''}` : '',
          part.canary ? `canary ${part.canary.version} at ${part.canary.share} %` : '',
          'version' in part.rollback ? `rollback → ${part.rollback.version}` : '',
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
