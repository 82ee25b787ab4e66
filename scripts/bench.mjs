// `npm run bench`: performance figures, never part of `npm test`.
// Installs what is missing, then runs bench/src/run.ts (Lighthouse, bytes and
// round trips against a monolith build, the API under load on 100,000
// products), which writes bench/results.md. The catalogue's own query
// benchmark is `node --import tsx api/bench/catalogue-bench.ts`.
import { join } from 'node:path';
import { ensureDependencies, root, run } from './lib.mjs';
import { ensureChromium } from './ensure-chromium.mjs';

await ensureDependencies();
await ensureChromium();
await run(process.execPath, ['--import', 'tsx', 'src/run.ts'], { cwd: join(root, 'bench') });
