// `pnpm release <deploy|rollback|status|history> [part] …`: the release command (api/src/release/cli.ts).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ensureDependencies, root } from './lib.mjs';

await ensureDependencies();
const child = spawn(process.execPath, ['--import', 'tsx', 'src/release/cli.ts', ...process.argv.slice(2)], {
  cwd: join(root, 'api'),
  stdio: 'inherit',
  env: { ...process.env, INIT_CWD: process.env.INIT_CWD ?? process.cwd() },
});
child.on('exit', (code) => process.exit(code ?? 1));
