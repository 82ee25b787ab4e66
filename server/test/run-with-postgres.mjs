#!/usr/bin/env node
/**
 * Runs the API tests against a throwaway PostgreSQL: starts one (tools/scripts/ensure-postgres.mjs),
 * runs `vitest run` with DATABASE_URL, stops and removes the server, exits with vitest's code.
 * Extra arguments go to vitest.
 */
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensurePostgres } from '../../tools/scripts/ensure-postgres.mjs';

const apiDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const { url, stop } = await ensurePostgres();
let code = 1;
try {
  code = await new Promise((resolve) => {
    const child = spawn(join(apiDir, 'node_modules', '.bin', 'vitest'), ['run', ...process.argv.slice(2)], {
      cwd: apiDir,
      stdio: 'inherit',
      env: { ...process.env, DATABASE_URL: url },
    });
    child.on('exit', (status, signal) => resolve(status ?? (signal ? 1 : 0)));
    child.on('error', () => resolve(1));
  });
} finally {
  await stop();
}
process.exit(code);
