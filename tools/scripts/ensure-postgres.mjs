#!/usr/bin/env node
/**
 * Makes a throwaway PostgreSQL server available on 127.0.0.1 for tests.
 *
 *   import { ensurePostgres } from './ensure-postgres.mjs';
 *   const { url, stop } = await ensurePostgres();   // postgres://postgres@127.0.0.1:<port>/postgres
 *
 * With a directory, the server keeps its data there across runs (made and initialised on the first):
 *   const { url, stop } = await ensurePostgres({ dir: '.data/cluster/postgres' });   // stop() keeps the dir
 *
 * Run directly, it prints only the DATABASE_URL on stdout and leaves the server running:
 *   DATABASE_URL=$(node tools/scripts/ensure-postgres.mjs) npx vitest run
 *   node tools/scripts/ensure-postgres.mjs --stop <dir>      (the exact command is logged on stderr)
 *
 * Steps: find initdb/pg_ctl (PG_BIN, /usr/lib/postgresql/<v>/bin preferring 15, PATH); when absent,
 * install Debian's `postgresql` with apt-get (the distro's cluster service is neither started nor
 * used); initdb a cluster in a temp dir owned by the `postgres` OS user (PostgreSQL refuses to run
 * as root), trust auth on 127.0.0.1 only, start it with pg_ctl on a free port, wait until it
 * accepts connections.
 * Plain Node ESM, no dependencies; logs go to stderr only.
 */
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { aptInstall, freePort, hasCommand, isRoot, run, sleep, ensureCli, readMarker } from './system.mjs';

const PREFERRED_MAJOR = 15;
const MARKER = '.ensure-postgres';
const KEPT_CONF = 'ensure-postgres.conf';
const SAFE_PATH = /^[\w./-]+$/;

const log = (message) => process.stderr.write(`[ensure-postgres] ${message}\n`);

function binDirHas(dir) {
  return ['initdb', 'pg_ctl', 'postgres'].every((b) => existsSync(path.join(dir, b)));
}

/** The bin directory of an installed PostgreSQL, or null. */
function findBinDir() {
  if (process.env.PG_BIN && binDirHas(process.env.PG_BIN)) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const majors = readdirSync(root)
      .filter((v) => /^\d+(\.\d+)?$/.test(v) && binDirHas(path.join(root, v, 'bin')))
      .sort((a, b) => Number(b) - Number(a));
    const chosen = majors.includes(String(PREFERRED_MAJOR)) ? String(PREFERRED_MAJOR) : majors[0];
    if (chosen) return path.join(root, chosen, 'bin');
  }
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (dir && binDirHas(dir)) return dir;
  }
  return null;
}

/** The OS user that runs the server: ourselves, or `postgres` (else `nobody`) when we are root. */
function serverUser() {
  if (!isRoot()) return null;
  for (const name of ['postgres', 'nobody']) {
    const uid = run('id', ['-u', name], { allowFail: true, quiet: true });
    const gid = run('id', ['-g', name], { allowFail: true, quiet: true });
    if (uid.ok && gid.ok) return { name, uid: Number(uid.output), gid: Number(gid.output) };
  }
  throw new Error('running as root, but neither a postgres nor a nobody OS user exists');
}

/** Runs a PostgreSQL tool as the server user. */
function runAs(user, command, args, options = {}) {
  if (!user) return run(command, args, options);
  if (hasCommand('runuser')) return run('runuser', ['-u', user.name, '--', command, ...args], options);
  // su needs one shell string; every part is checked against SAFE_PATH-like characters first.
  const parts = [command, ...args];
  if (!parts.every((p) => /^[\w./=:,'-]+$/.test(p))) throw new Error('unsafe argument for su');
  return run('su', [user.name, '-s', '/bin/sh', '-c', parts.map((p) => `'${p.replace(/'/g, `'\\''`)}'`).join(' ')], options);
}

function canConnect(port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function waitUntilReady(binDir, port, timeoutMs = 30_000) {
  const isready = path.join(binDir, 'pg_isready');
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const ready = existsSync(isready)
      ? run(isready, ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-d', 'postgres', '-t', '2'], {
          allowFail: true,
          quiet: true,
        }).ok
      : await canConnect(port);
    if (ready) return;
    await sleep(200);
  }
  throw new Error(`PostgreSQL on port ${port} did not accept connections within ${timeoutMs / 1000} s`);
}

function stopServer(binDir, user, dir, { keep = false } = {}) {
  const dataDir = path.join(dir, 'data');
  if (existsSync(path.join(dataDir, 'postmaster.pid'))) {
    runAs(user, path.join(binDir, 'pg_ctl'), ['-D', dataDir, '-m', 'fast', '-w', '-t', '30', 'stop'], { cwd: dir, allowFail: true });
  }
  if (!keep) rmSync(dir, { recursive: true, force: true });
}

/**
 * A kept server's memory as a production server is set up (PostgreSQL's own advice: shared buffers
 * a quarter of the memory, here at most 2 GB; the planner told that the OS caches about half).
 * PostgreSQL's default of 128 MB shared buffers holds only a small part of the generated
 * 100,000-product catalog: a search or listing then copied each page it read from the OS cache again.
 * Throwaway test servers keep the defaults (small databases, many servers at once).
 */
function memorySettings() {
  const mb = Math.floor(os.totalmem() / 1024 / 1024);
  const shared = Math.max(128, Math.min(2048, Math.floor(mb / 4)));
  return [`shared_buffers = ${shared}MB`, `effective_cache_size = ${Math.max(shared, Math.floor(mb / 2))}MB`];
}

/**
 * Starts a PostgreSQL on 127.0.0.1: a throwaway one whose `stop()` stops it and removes its
 * directory, or with `dir` one that keeps its data there (initialised on the first run, durable:
 * fsync on) and whose `stop()` stops it and leaves the directory.
 */
export async function ensurePostgres({ dir: keptDir } = {}) {
  let binDir = findBinDir();
  if (!binDir) {
    aptInstall(['postgresql'], { what: 'PostgreSQL', tag: 'ensure-postgres', log });
    binDir = findBinDir();
    if (!binDir) throw new Error('PostgreSQL was installed but initdb/pg_ctl were not found');
  }
  log(`using ${binDir}`);
  const user = serverUser();

  const keep = Boolean(keptDir);
  const dir = keep ? path.resolve(keptDir) : mkdtempSync(path.join(os.tmpdir(), 'pg-test-'));
  if (!SAFE_PATH.test(dir)) throw new Error(`unexpected characters in ${keep ? '' : 'temp '}dir ${dir}`);
  const dataDir = path.join(dir, 'data');
  const socketDir = path.join(dir, 'socket');
  const logFile = path.join(dir, 'postgres.log');
  if (keep) {
    mkdirSync(dir, { recursive: true });
    const running =
      existsSync(path.join(dataDir, 'postmaster.pid')) &&
      runAs(user, path.join(binDir, 'pg_ctl'), ['-D', dataDir, 'status'], { allowFail: true, quiet: true }).ok;
    if (running)
      throw new Error(`a PostgreSQL already runs on ${dataDir}; stop it first: node tools/scripts/ensure-postgres.mjs --stop ${dir}`);
  }
  const initialised = keep && existsSync(path.join(dataDir, 'PG_VERSION'));
  if (!existsSync(socketDir)) mkdirSync(socketDir, { mode: 0o700 });
  if (!keep || !existsSync(logFile)) writeFileSync(logFile, '');
  writeFileSync(path.join(dir, MARKER), keep ? `${binDir}\nkeep\n` : `${binDir}\n`);
  if (user) {
    for (const p of [dir, socketDir, logFile]) chownSync(p, user.uid, user.gid);
    if (!runAs(user, 'test', ['-w', dir], { allowFail: true, quiet: true }).ok) {
      // A kept directory holds data: it is never removed here, whatever made it unreachable.
      if (!keep) rmSync(dir, { recursive: true, force: true });
      throw new Error(
        keep
          ? `the ${user.name} OS user cannot reach ${dir}: a directory above it is closed to that user (a shop's data directory is private to its own); keep PostgreSQL's directory outside it`
          : `the ${user.name} OS user cannot reach ${dir}; set TMPDIR to a directory it can enter (e.g. /tmp)`,
      );
    }
  }

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    stopServer(binDir, user, dir, { keep });
    log(keep ? `stopped (data kept in ${dir})` : `stopped and removed ${dir}`);
  };

  try {
    if (!initialised) {
      runAs(
        user,
        path.join(binDir, 'initdb'),
        ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-locale', ...(keep ? [] : ['--no-sync'])],
        {
          cwd: dir,
          quiet: true,
        },
      );
      // Trust, but only over the private socket directory and from 127.0.0.1.
      writeFileSync(path.join(dataDir, 'pg_hba.conf'), 'local all all trust\nhost all all 127.0.0.1/32 trust\n');
      if (user) chownSync(path.join(dataDir, 'pg_hba.conf'), user.uid, user.gid);
      // A kept server reads its address, port and socket from a file rewritten at every start.
      if (keep) appendFileSync(path.join(dataDir, 'postgresql.conf'), `\ninclude_if_exists = '${KEPT_CONF}'\n`);
    }

    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      if (keep) {
        const keptConf = path.join(dataDir, KEPT_CONF);
        writeFileSync(
          keptConf,
          [
            '# ensure-postgres: rewritten at every start',
            "listen_addresses = '127.0.0.1'",
            `port = ${port}`,
            `unix_socket_directories = '${socketDir}'`,
            'max_connections = 200',
            ...memorySettings(),
            '',
          ].join('\n'),
        );
        if (user) chownSync(keptConf, user.uid, user.gid);
      } else {
        appendFileSync(
          path.join(dataDir, 'postgresql.conf'),
          [
            '',
            '# ensure-postgres: a throwaway test server',
            "listen_addresses = '127.0.0.1'",
            `port = ${port}`,
            `unix_socket_directories = '${socketDir}'`,
            'max_connections = 200',
            'fsync = off',
            'synchronous_commit = off',
            'full_page_writes = off',
            '',
          ].join('\n'),
        );
      }
      const started = runAs(user, path.join(binDir, 'pg_ctl'), ['-D', dataDir, '-l', logFile, '-w', '-t', '60', 'start'], {
        cwd: dir,
        allowFail: true,
        quiet: true,
      });
      if (started.ok) {
        await waitUntilReady(binDir, port);
        const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
        log(`PostgreSQL ready at ${url} (data in ${dir}${keep ? ', kept' : ''})`);
        return { url, stop, dir };
      }
      log(`start on port ${port} failed (attempt ${attempt}): ${started.output}`);
      if (attempt >= 3) throw new Error(`could not start PostgreSQL; see ${logFile}`);
    }
  } catch (err) {
    await stop();
    throw err;
  }
}

/** `--stop <dir>`: stops a server this script started and removes its directory (not a kept one). */
function stopFromCli(dir) {
  const { resolved, text } = readMarker(dir, MARKER, 'ensure-postgres');
  const binDir = findBinDir();
  if (!binDir) throw new Error('PostgreSQL binaries not found');
  const keep = text.split('\n')[1] === 'keep';
  stopServer(binDir, serverUser(), resolved, { keep });
  log(keep ? `stopped (data kept in ${resolved})` : `stopped and removed ${resolved}`);
}

await ensureCli(import.meta.url, { log, stop: stopFromCli, start: () => ensurePostgres() });
