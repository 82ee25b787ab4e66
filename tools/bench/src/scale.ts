/**
 * `npm run bench:scale`: only the at-scale rows of the benchmark (tools/bench/src/scale-load.ts) and the
 * pages through nginx with a Zipf popularity (tools/bench/src/edge-load.ts), written
 * to tools/bench/scale-results.md; `npm run bench` runs them too, into tools/bench/results.md.
 * Settings: BENCH_PRODUCTS (100000), BENCH_LOAD_SECONDS (10).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runScaleLoad, scaleSection } from './scale-load.ts';
import { edgeSection, runEdgeLoad } from './edge-load.ts';
import { repo } from './shop-server.ts';

const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 100_000);
const SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 10);
const result = await runScaleLoad({ port: 4660, products: PRODUCTS, seconds: SECONDS });
const edge = await runEdgeLoad({ port: 4670, products: PRODUCTS, seconds: SECONDS });
const lines = [
  `# At scale (${new Date().toISOString().slice(0, 10)}, this machine: 2 cores)`,
  '',
  ...scaleSection(result, PRODUCTS, SECONDS),
  ...edgeSection(edge, PRODUCTS, SECONDS),
];
writeFileSync(join(repo, 'tools', 'bench', 'scale-results.md'), lines.join('\n'));
process.stdout.write(`${lines.join('\n')}\n`);
