// `npm run bench`: performance figures, never part of `npm test`.
// Installs what is missing, then runs tools/bench/src/run.ts (Lighthouse, bytes and
// round trips against a monolith build, the API under load on 100,000
// products), which writes tools/bench/results.md. The catalog's own query
// benchmark is `node --import tsx tools/bench/catalog/catalog-bench.ts`.
// `npm run bench:scale` (`bench.mjs scale`) runs only the at-scale rows (tools/bench/src/scale.ts:
// one server on SQLite, one on PostgreSQL, two behind nginx on PostgreSQL and Redis).
// `npm run bench -- waits` runs only "What the shopper waits for" (tools/bench/src/shopper-waits.ts).
import { join } from 'node:path';
import { ensureDependencies, root, run } from './lib.mjs';
import { ensureChromium } from './ensure-chromium.mjs';
import { buildAll } from './build.mjs';

await ensureDependencies();
await buildAll();
if (process.argv[2] === 'scale') {
  await run(process.execPath, ['--import', 'tsx', 'src/scale.ts'], { cwd: join(root, 'tools', 'bench') });
} else if (process.argv[2] === 'waits') {
  await ensureChromium();
  await run(process.execPath, ['--import', 'tsx', 'src/shopper-waits-only.ts'], { cwd: join(root, 'tools', 'bench') });
} else {
  await ensureChromium();
  await run(process.execPath, ['--import', 'tsx', 'src/run.ts'], { cwd: join(root, 'tools', 'bench') });
}
