/**
 * The catalogue's calls one at a time (tools/bench/catalogue/catalogue-bench.ts), on SQLite and on
 * PostgreSQL: the same generated catalogue of `products` products, the PostgreSQL one kept with
 * the at-scale rows' database (tools/bench/src/scale-load.ts grows it).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensurePostgres } from '../../scripts/ensure-postgres.mjs';
import { benchDataDir, repo } from './shop-server.ts';

export type CatalogueKind = { kind: string; limitMs: number; median: number; worst: number };
/** Medians of a call that reads nothing and of one that runs a single trivial query: what any call costs before its own work. */
export type CatalogueFloor = { noQueryMs: number; oneQueryMs: number };
export type CatalogueRun = { dialect: 'sqlite' | 'postgres'; table: string; kinds: CatalogueKind[]; floor: CatalogueFloor | null };

function run(dialect: CatalogueRun['dialect'], products: number, databaseUrl?: string): CatalogueRun {
  const summaryDir = mkdtempSync(join(tmpdir(), 'bench-catalogue-'));
  try {
    const summaryFile = join(summaryDir, 'summary.json');
    const catalogue = spawnSync(process.execPath, ['--import', 'tsx', 'catalogue/catalogue-bench.ts'], {
      cwd: join(repo, 'tools', 'bench'),
      encoding: 'utf8',
      env: { ...process.env, BENCH_PRODUCTS: String(products), BENCH_SUMMARY: summaryFile, BENCH_DATABASE_URL: databaseUrl ?? '' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    if (catalogue.status !== 0)
      return { dialect, table: `The catalogue benchmark on ${dialect} failed (exit ${catalogue.status}).`, kinds: [], floor: null };
    const summary = JSON.parse(readFileSync(summaryFile, 'utf8')) as { kinds: CatalogueKind[]; floor: CatalogueFloor };
    return { dialect, table: catalogue.stdout.trim(), ...summary };
  } finally {
    rmSync(summaryDir, { recursive: true, force: true });
  }
}

export async function runCatalogueOneAtATime(products: number): Promise<CatalogueRun[]> {
  const sqlite = run('sqlite', products);
  const postgres = await ensurePostgres({ dir: join(benchDataDir(`api-pg-${products}`), 'postgres') });
  try {
    return [sqlite, run('postgres', products, postgres.url)];
  } finally {
    await postgres.stop();
  }
}
