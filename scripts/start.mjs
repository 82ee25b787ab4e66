// `npm start`: install what is missing, build what changed, publish, then
// serve the whole shop (the database is created and seeded on first run).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ensureDependencies, log, root, seconds } from './lib.mjs';
import { buildAll, publishAll } from './build.mjs';

const since = performance.now();
await ensureDependencies();
await buildAll();
await publishAll();
log(`Prepared in ${seconds(since)}; starting the server`);

const server = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], { cwd: join(root, 'api'), stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));
