// `npm start`: install what is missing, build what changed (the server too,
// into JavaScript: production runs api/dist/server.js, not TypeScript), publish,
// then serve the whole shop (the database is created and seeded on first run)
// under a supervisor that restarts the server when it dies.
import { join } from 'node:path';
import { ensureDependencies, log, root, seconds } from './lib.mjs';
import { buildAll, publishAll } from './build.mjs';
import { supervise } from './supervise.mjs';

const since = performance.now();
await ensureDependencies();
await buildAll();
await publishAll();
log(`Prepared in ${seconds(since)}; starting the server (restarted by a supervisor if it dies)`);

// React (server rendering) runs its production build unless told otherwise.
process.env.NODE_ENV ??= 'production';
process.exit(await supervise({ command: process.execPath, args: ['--enable-source-maps', 'dist/server.js'], cwd: join(root, 'apps', 'api') }));
