/**
 * The data directory is the server user's alone: the server creates it 0700 (or tightens it), and
 * what it writes there (the database, secrets) is 0600, whatever umask it was started with.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadJwtSecret, prepareDataDir } from '../../src/config.ts';
import { openDatabase } from '../../src/db/connect.ts';
import { sqliteFileOf } from '../../src/db/create-database.ts';

const parent = mkdtempSync(join(tmpdir(), 'data-dir-'));
const modeOf = (path: string) => statSync(path).mode & 0o777;
let umask: number;

beforeEach(() => {
  // As a shell with the usual umask starts the server.
  umask = process.umask(0o022);
});
afterEach(() => {
  process.umask(umask);
});
afterAll(() => {
  rmSync(parent, { recursive: true, force: true });
});

describe('DATA_DIR', () => {
  it('is created 0700, and the database and secrets written into it are 0600', async () => {
    const dataDir = join(parent, 'fresh', 'data');
    await prepareDataDir(dataDir);
    expect(modeOf(dataDir)).toBe(0o700);
    const opened = await openDatabase({ sqliteFile: sqliteFileOf(dataDir) });
    await opened.db.selectNoFrom((eb) => eb.val(1).as('one')).execute();
    await loadJwtSecret({}, dataDir);
    await opened.close();
    const files = readdirSync(dataDir);
    expect(files.length).toBeGreaterThanOrEqual(2);
    for (const name of files) expect(modeOf(join(dataDir, name)), name).toBe(0o600);
  });

  it('an existing directory another tool made with the umask is tightened to 0700', async () => {
    const dataDir = join(parent, 'made-by-a-launcher');
    mkdirSync(dataDir, { mode: 0o755 });
    expect(modeOf(dataDir)).toBe(0o755);
    await prepareDataDir(dataDir);
    expect(modeOf(dataDir)).toBe(0o700);
  });
});
