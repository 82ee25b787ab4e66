// `pnpm --filter @shop/server build`: the server of `npm start`, the release command and the backup
// command as plain JavaScript, so production runs `node dist/server.js` without compiling TypeScript
// at start-up. One esbuild bundle per entry point (dist/server.js, dist/release/cli.js from
// @shop/release's command, dist/backup/cli.js, dist/release/credentials-cli.js): the API's sources and
// the workspace's packages (@shop/shared-kernel, @shop/release: TypeScript sources) are inlined; every npm package stays external and is loaded from node_modules as usual
// (native better-sqlite3, pdfkit's font data, …).
// Nothing may find files beside its own source (see src/infra/paths.ts); migrations are a static
// map (src/db/migrations/index.ts), so they are in the bundle under their file names.
// tools/scripts/build.mjs runs this only when the API's or the kernel's sources changed.
import { builtinModules } from 'node:module';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { buildSandbox } from './build-sandbox.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, 'dist');
/** Each entry's source and its bundle under dist/ (the release commands keep the paths the scripts run). */
export const ENTRIES = [
  { in: 'src/server.ts', out: 'server' },
  { in: '../release/src/cli.ts', out: 'release/cli' },
  { in: 'src/backup/cli.ts', out: 'backup/cli' },
  { in: 'src/domains/operators/credentials-cli.ts', out: 'release/credentials-cli' },
];

const manifest = JSON.parse(readFileSync(join(here, 'package.json'), 'utf8'));
const WORKSPACE = /^@shop\//;

/** Bare imports stay imports, except the workspace's own packages (TypeScript sources, no build of their own). */
const externalPackages = {
  name: 'external-packages',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, (args) =>
      args.kind === 'entry-point' || WORKSPACE.test(args.path) ? undefined : { path: args.path, external: true },
    );
  },
};

/** The npm package an import names (`@scope/name/sub` → `@scope/name`), or null for Node's own modules. */
function packageOf(specifier) {
  if (specifier.startsWith('node:') || builtinModules.includes(specifier.split('/')[0])) return null;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

const since = performance.now();
const result = await build({
  entryPoints: ENTRIES.map((entry) => ({ in: join(here, entry.in), out: entry.out })),
  outdir: dist,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Stack traces in the logs point at the TypeScript (start with node --enable-source-maps).
  sourcemap: 'linked',
  sourcesContent: false,
  plugins: [externalPackages],
  metafile: true,
  write: false,
  logLevel: 'warning',
});

// Production installs the API's dependencies: an import of anything else would fail only at run time.
const missing = new Set();
for (const output of Object.values(result.metafile.outputs)) {
  for (const { path, external } of output.imports) {
    const name = external ? packageOf(path) : null;
    if (name && !manifest.dependencies?.[name]) missing.add(name);
  }
}
if (missing.size > 0) {
  process.stderr.write(`[api build] imported but not in api/package.json dependencies: ${[...missing].join(', ')}\n`);
  process.exit(1);
}

// Each file is replaced at once (written aside, then renamed): a server starting meanwhile reads the old or the new one.
for (const file of result.outputFiles) {
  mkdirSync(dirname(file.path), { recursive: true });
  const aside = `${file.path}.${process.pid}.tmp`;
  writeFileSync(aside, file.contents);
  renameSync(aside, file.path);
}
// The server-render sandbox's renderer and its isolate's runtime (build-sandbox.mjs), beside the server.
const sandbox = await buildSandbox({ outdir: join(dist, 'sandbox'), write: false });
for (const [name, text] of [
  ['renderer.cjs', sandbox.renderer],
  ['runtime.js', sandbox.runtime],
]) {
  const file = join(dist, 'sandbox', name);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(`${file}.${process.pid}.tmp`, text);
  renameSync(`${file}.${process.pid}.tmp`, file);
}
const sizes = result.outputFiles
  .filter((file) => file.path.endsWith('.js'))
  .map((file) => `${relative(here, file.path)} ${(file.contents.length / 1024).toFixed(0)} KB`);
process.stdout.write(`[api build] ${sizes.join(', ')} in ${((performance.now() - since) / 1000).toFixed(1)} s\n`);
