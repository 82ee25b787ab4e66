// `npm run build`: builds the API server (to JavaScript, server/dist/), the
// operator console (server/console/dist/, served by the server on the operator
// origin) and the shell and every area that changed since the last build (each
// on its own, as its team would), then publishes the shell and areas to the
// local static origin and moves their pointers in builds/latest.json.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { browserParts, ensureDependencies, log, pnpmRun, root, run, step } from './lib.mjs';

const SKIP = new Set(['node_modules', 'dist', '.vite', '__mf__temp', '.__mf__temp', 'test-results']);

function hashTree(hash, dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    if (SKIP.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) hashTree(hash, path);
    else if (entry.isFile() && !/\.test\.tsx?$/.test(entry.name)) hash.update(path.slice(root.length)).update(readFileSync(path));
  }
}

/** Everything a build depends on: its own files (folders or files), the kernel, the lockfile, the base config. */
function inputStamp(own) {
  const hash = createHash('sha256');
  for (const input of own) {
    const path = join(root, input);
    if (statSync(path).isDirectory()) hashTree(hash, path);
    else hash.update(input).update(readFileSync(path));
  }
  hashTree(hash, join(root, 'shared-kernel', 'src'));
  hashTree(hash, join(root, 'shared-kernel', 'build'));
  hashTree(hash, join(root, 'shared-kernel', 'styles'));
  for (const file of ['pnpm-lock.yaml', 'tsconfig.base.json', 'shared-kernel/package.json']) {
    hash.update(readFileSync(join(root, file)));
  }
  return hash.digest('hex');
}

const stampFile = join(root, '.data', 'build-stamps.json');
const readStamps = () => (existsSync(stampFile) ? JSON.parse(readFileSync(stampFile, 'utf8')) : {});
function keepStamp(name, stamp) {
  // Read again: another build may have finished meanwhile.
  const stamps = { ...readStamps(), [name]: stamp };
  mkdirSync(join(root, '.data'), { recursive: true });
  writeFileSync(stampFile, JSON.stringify(stamps, null, 2));
}

/** What the API's build (server/build.mjs) reads; its tests and benchmarks are not part of it. */
const API_INPUTS = [
  'server/src',
  'server/package.json',
  'server/tsconfig.json',
  'server/build.mjs',
  'server/build-sandbox.mjs',
  'release/src',
  'release/package.json',
  'tools/s3/src',
  'tools/s3/package.json',
];
const API_OUTPUTS = [
  'server/dist/server.js',
  'server/dist/release/cli.js',
  'server/dist/backup/cli.js',
  'server/dist/release/credentials-cli.js',
  'server/dist/sandbox/renderer.cjs',
  'server/dist/sandbox/runtime.js',
];

/**
 * The server, the release and the backup command as JavaScript (server/dist/), what `npm start` and the
 * end-to-end tests run: rebuilt when the API's or the kernel's sources (or the lockfile) changed.
 */
export async function buildApiServer({ force = false, quiet = false } = {}) {
  const stamp = inputStamp(API_INPUTS);
  const built = API_OUTPUTS.every((file) => existsSync(join(root, file)));
  if (!force && built && readStamps().api === stamp) {
    if (!quiet) log('api: up to date, not rebuilt');
    return;
  }
  await step('Building api (server and release command → server/dist)', () =>
    run(process.execPath, ['build.mjs'], { cwd: join(root, 'server') }),
  );
  keepStamp('api', stamp);
}

/** What the operator console's build reads: its own folder and the kernel (inputStamp adds it). */
const CONSOLE_INPUTS = ['server/console'];

/**
 * The operator console (server/console → server/console/dist), which the server serves on the
 * operator origin: rebuilt when its sources, the kernel or the lockfile changed.
 */
export async function buildConsole({ force = false, quiet = false } = {}) {
  const stamp = inputStamp(CONSOLE_INPUTS);
  const built = existsSync(join(root, 'server', 'console', 'dist', 'index.html'));
  if (!force && built && readStamps().console === stamp) {
    if (!quiet) log('operator console: up to date, not rebuilt');
    return;
  }
  await step('Building the operator console (server/console → server/console/dist)', () =>
    pnpmRun(['--filter', './server/console', 'build'], { stdio: ['ignore', 'ignore', 'inherit'] }),
  );
  keepStamp('console', stamp);
}

export async function buildAll({ force = false } = {}) {
  await buildApiServer({ force });
  await buildConsole({ force });
  for (const part of browserParts()) {
    const stamp = inputStamp([part]);
    const built = existsSync(join(root, part, 'dist', part === 'shell' ? 'index.html' : 'remoteEntry.js'));
    if (!force && built && readStamps()[part] === stamp) {
      log(`${part}: up to date, not rebuilt`);
      continue;
    }
    await step(`Building ${part}`, () => pnpmRun(['--filter', `./${part}`, 'build'], { stdio: ['ignore', 'ignore', 'inherit'] }));
    keepStamp(part, stamp);
  }
}

/**
 * Releases what is new: parts whose build the origin has never had and that
 * no rollback pinned. A part rolled back (pinned) or a build released before
 * (e.g. the one rolled back from) is left where it is, with the reason printed.
 */
/**
 * `npm start`'s release step, as the owner's tool: the owner's release key (made once, outside the
 * data directory, its public half registered in the shop's database), then a signed request to
 * release what is new, which the shop's server applies when it starts (it keeps the registry).
 */
export async function publishAll(originDir, env = process.env) {
  await step("The owner's release key (credentials shop-key-create)", () =>
    run(process.execPath, ['dist/release/credentials-cli.js', 'shop-key-create'], { cwd: join(root, 'server'), env }),
  );
  const args = ['dist/release/cli.js', 'deploy', 'all', '--no-build', '--only-new', '--init', '--no-wait', '--reason', 'npm start'];
  if (originDir) args.push('--origin', originDir);
  await step('Releasing new builds to the static origin (release deploy all --only-new)', () =>
    run(process.execPath, args, { cwd: join(root, 'server'), env }),
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await ensureDependencies();
  await buildAll({ force: process.argv.includes('--force') });
  await publishAll();
}
