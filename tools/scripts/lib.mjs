// Helpers for the root commands: logging with timings, running commands,
// and making sure pnpm and the dependencies are installed. No dependencies.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const PNPM_VERSION = '12.21.0';

export const log = (message) => process.stdout.write(`\x1b[1m▸ ${message}\x1b[0m\n`);
export const seconds = (since) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

/**
 * Environment for installs: node-gyp builds native modules (better-sqlite3, isolated-vm) against the
 * local Node headers, and never tries to download a prebuilt binary first (prebuild-install).
 */
export function installEnv() {
  const env = { ...process.env, npm_config_build_from_source: 'true' };
  if (!env.npm_config_nodedir && existsSync('/usr/include/node/node.h')) env.npm_config_nodedir = '/usr';
  return env;
}

/**
 * RENDER_IN_PROCESS_FOR_BENCH runs the areas' server builds inside the server process, without the
 * sandbox: the benchmark's comparison only (tools/bench). The normal starts refuse it.
 */
export function refuseBenchOnlySettings() {
  if (process.env.RENDER_IN_PROCESS_FOR_BENCH) {
    process.stderr.write(
      "RENDER_IN_PROCESS_FOR_BENCH is for the benchmark only: it runs the areas' server builds inside the server, without the sandbox. Unset it.\n",
    );
    process.exit(1);
  }
}

/** Runs a command with inherited output; rejects on a non-zero exit. */
export function run(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: root, stdio: 'inherit', ...options });
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} failed (${signal ?? `exit ${code}`})`)),
    );
  });
}

/** Runs a step, printing what it does and how long it took. */
export async function step(title, action) {
  const since = performance.now();
  log(`${title}…`);
  const result = await action();
  log(`${title}: done in ${seconds(since)}`);
  return result;
}

function pnpmWorks() {
  const result = spawnSync('pnpm', ['--version'], { encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : null;
}

export async function ensurePnpm() {
  const version = pnpmWorks();
  if (version && Number(version.split('.')[0]) >= 10) return;
  await step(`Installing pnpm ${PNPM_VERSION} (npm install -g)`, () =>
    run('npm', ['install', '--global', `pnpm@${PNPM_VERSION}`, '--no-fund', '--no-audit'], { env: installEnv() }),
  );
}

/** The folders pnpm-workspace.yaml names (`dir` or `dir/*`, `mf-*`) that hold a package. */
function workspacePatterns() {
  const lines = readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8').split('\n');
  const list = lines.slice(lines.indexOf('packages:') + 1);
  const end = list.findIndex((line) => !/^\s+-/.test(line));
  return list.slice(0, end === -1 ? list.length : end).map((line) => line.replace(/^\s+-\s+/, '').trim());
}

const isPackage = (dir) => existsSync(join(root, dir, 'package.json'));

/** Every workspace package's folder, read from pnpm-workspace.yaml (no list to keep in step). */
export const workspaceFolders = () =>
  workspacePatterns()
    .flatMap((pattern) => {
      if (!pattern.includes('*')) return [pattern];
      const slash = pattern.lastIndexOf('/');
      const parent = slash === -1 ? '.' : pattern.slice(0, slash);
      const prefix = pattern.slice(slash + 1, -1);
      return readdirSync(join(root, parent), { withFileTypes: true })
        .filter((entry) => entry.isDirectory() && entry.name.startsWith(prefix))
        .map((entry) => (parent === '.' ? entry.name : `${parent}/${entry.name}`));
    })
    .filter(isPackage)
    .sort();

/** The two programs `npm test` checks: every package is in one (typecheckAll checks it is). */
const PROGRAMS = ['tsconfig.browser.json', 'tsconfig.node.json'];

/** A tsconfig's `include` list (the files allow comments). */
const includesOf = (file) => JSON.parse(readFileSync(file, 'utf8').replace(/^\s*\/\/.*$/gm, '')).include ?? [];

/**
 * Every package's typecheck (tsgo, TypeScript's native port) as two programs side by side: the
 * browser parts, the console and the kernel (tsconfig.browser.json), and everything that runs on
 * Node (tsconfig.node.json), so that
 * the kernel and the release tool are checked once, not in every program that imports them. A
 * package whose own tsconfig includes a folder neither program includes fails here, so a new package
 * is never left unchecked.
 */
export function typecheckAll() {
  const checked = PROGRAMS.flatMap((program) => includesOf(join(root, program)));
  const missed = workspaceFolders()
    .filter((dir) => existsSync(join(root, dir, 'tsconfig.json')))
    .flatMap((dir) => includesOf(join(root, dir, 'tsconfig.json')).map((include) => `${dir}/${include}`))
    .filter((path) => !checked.includes(path));
  if (missed.length > 0) {
    return Promise.reject(new Error(`Not in ${PROGRAMS.join(' or ')}: ${missed.join(', ')}`));
  }
  return Promise.all(PROGRAMS.map((program) => run(join(root, 'node_modules', '.bin', 'tsgo'), ['-p', program])));
}

/** The browser parts (a Vite build at the root: `mf-*` and `shell`): the areas, then the shell. */
export const browserParts = () =>
  workspaceFolders()
    .filter((dir) => (dir === 'shell' || dir.startsWith('mf-')) && existsSync(join(root, dir, 'vite.config.ts')))
    .sort((a, b) => Number(a === 'shell') - Number(b === 'shell') || a.localeCompare(b));

function newestInput() {
  const inputs = ['pnpm-lock.yaml', 'pnpm-workspace.yaml', 'package.json'];
  for (const dir of workspaceFolders()) inputs.push(join(dir, 'package.json'));
  return Math.max(...inputs.map((file) => statSync(join(root, file)).mtimeMs));
}

/** Installs the workspace's dependencies when they are missing or older than the lockfile. */
export async function ensureDependencies() {
  await ensurePnpm();
  // Written after a successful install; newer than every manifest means nothing to do.
  const marker = join(root, 'node_modules', '.shop-installed');
  if (existsSync(marker) && statSync(marker).mtimeMs >= newestInput()) return;
  await step('Installing dependencies (pnpm install; better-sqlite3 and isolated-vm compile from source)', () =>
    run('pnpm', ['install', '--frozen-lockfile'], { env: installEnv() }),
  );
  writeFileSync(marker, new Date().toISOString());
}

export async function pnpmRun(args, options = {}) {
  return run('pnpm', args, options);
}
