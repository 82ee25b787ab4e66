// `npm run backup [-- --list]` and `npm run restore -- <name|latest|path> [--data-dir DIR] [--force]`: the
// backup command (api/src/backup/cli.ts), run compiled (api/dist/backup/cli.js, rebuilt first when the
// API's sources changed). A restore needs the server stopped.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ensureDependencies, root } from './lib.mjs';
import { buildApiServer } from './build.mjs';

await ensureDependencies();
await buildApiServer({ quiet: true });
const child = spawn(process.execPath, ['--enable-source-maps', 'dist/backup/cli.js', ...process.argv.slice(2)], {
  cwd: join(root, 'server'),
  stdio: 'inherit',
  env: { ...process.env, INIT_CWD: process.env.INIT_CWD ?? process.cwd() },
});
child.on('exit', (code) => process.exit(code ?? 1));
