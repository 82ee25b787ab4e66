// `pnpm release <command> [part] …` (`pnpm release --help` lists them): the release command
// (release/src/cli.ts), run compiled (api/dist/release/cli.js, rebuilt first when its sources changed).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ensureDependencies, root } from './lib.mjs';
import { buildApiServer } from './build.mjs';

await ensureDependencies();
await buildApiServer({ quiet: true });
const child = spawn(process.execPath, ['dist/release/cli.js', ...process.argv.slice(2)], {
  cwd: join(root, 'server'),
  stdio: 'inherit',
  env: { ...process.env, INIT_CWD: process.env.INIT_CWD ?? process.cwd() },
});
child.on('exit', (code) => process.exit(code ?? 1));
