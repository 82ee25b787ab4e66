/**
 * The catalog's calls one at a time (tools/bench/catalog/catalog-bench.ts), on SQLite and on
 * PostgreSQL: the same generated catalog of `products` products, the PostgreSQL one kept with
 * the at-scale rows' database (tools/bench/src/scale-load.ts grows it).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensurePostgres } from '../../scripts/ensure-postgres.mjs';
import { benchPostgresDir, repo } from './shop-server.ts';

export type CatalogKind = { kind: string; limitMs: number; median: number; worst: number };
/** Medians of a call that reads nothing and of one that runs a single trivial query: what any call costs before its own work. */
export type CatalogFloor = { noQueryMs: number; oneQueryMs: number };
export type CatalogRun = { dialect: 'sqlite' | 'postgres'; table: string; kinds: CatalogKind[]; floor: CatalogFloor | null };

function run(dialect: CatalogRun['dialect'], products: number, databaseUrl?: string): CatalogRun {
  const summaryDir = mkdtempSync(join(tmpdir(), 'bench-catalog-'));
  try {
    const summaryFile = join(summaryDir, 'summary.json');
    const catalog = spawnSync(process.execPath, ['--import', 'tsx', 'catalog/catalog-bench.ts'], {
      cwd: join(repo, 'tools', 'bench'),
      encoding: 'utf8',
      env: { ...process.env, BENCH_PRODUCTS: String(products), BENCH_SUMMARY: summaryFile, BENCH_DATABASE_URL: databaseUrl ?? '' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    if (catalog.status !== 0)
      return { dialect, table: `The catalog benchmark on ${dialect} failed (exit ${catalog.status}).`, kinds: [], floor: null };
    const summary = JSON.parse(readFileSync(summaryFile, 'utf8')) as { kinds: CatalogKind[]; floor: CatalogFloor };
    return { dialect, table: catalog.stdout.trim(), ...summary };
  } finally {
    rmSync(summaryDir, { recursive: true, force: true });
  }
}

export async function runCatalogOneAtATime(products: number): Promise<CatalogRun[]> {
  const sqlite = run('sqlite', products);
  const postgres = await ensurePostgres({ dir: benchPostgresDir(products) });
  try {
    return [sqlite, run('postgres', products, postgres.url)];
  } finally {
    await postgres.stop();
  }
}
