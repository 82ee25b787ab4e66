/**
 * The render comparison alone (page-load.ts `runRenderComparison`): server-rendered pages, cache off,
 * 50 connections, distinct URLs, in-process against the sandbox with 1 and 2 renderers, the modes
 * alternating, prints the section results.md gets.
 *   BENCH_PRODUCTS=100000 BENCH_LOAD_SECONDS=10 BENCH_RENDER_ROUNDS=3 PORT=4680 node --import tsx src/render-comparison.ts
 */
import { renderComparisonSection, runRenderComparison } from './page-load.ts';

const products = Number(process.env.BENCH_PRODUCTS ?? 100_000);
const seconds = Number(process.env.BENCH_LOAD_SECONDS ?? 10);
const rounds = Number(process.env.BENCH_RENDER_ROUNDS ?? 3);
const rows = await runRenderComparison({ port: Number(process.env.PORT ?? 4680), products, connections: 50, seconds, rounds });
process.stdout.write(`${renderComparisonSection(rows, products, seconds, rounds).join('\n')}\n${JSON.stringify(rows)}\n`);
