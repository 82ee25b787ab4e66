// `npm run credentials -- create <area> <name> | revoke <name> | list | operator-create <name> |
// operator-revoke <name> | operator-list | sessions-revoke <name>`: the owner's command for the area
// teams' release credentials and the operator accounts of the operator console and the machine credentials (server/src/domains/operators/credentials-cli.ts), run compiled
// (api/dist/release/credentials-cli.js, rebuilt first when the API's sources changed).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ensureDependencies, root } from './lib.mjs';
import { buildApiServer } from './build.mjs';

await ensureDependencies();
await buildApiServer({ quiet: true });
const child = spawn(process.execPath, ['--enable-source-maps', 'dist/release/credentials-cli.js', ...process.argv.slice(2)], {
  cwd: join(root, 'server'),
  stdio: 'inherit',
});
child.on('exit', (code) => process.exit(code ?? 1));
