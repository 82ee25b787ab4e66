#!/usr/bin/env node
/**
 * Makes a throwaway Redis server available on 127.0.0.1.
 *
 *   import { ensureRedis } from './ensure-redis.mjs';
 *   const { url, stop } = await ensureRedis();   // redis://127.0.0.1:<port>
 *
 * Run directly, it prints only the REDIS_URL on stdout and leaves the server running:
 *   REDIS_URL=$(node tools/scripts/ensure-redis.mjs) npm start
 *   node tools/scripts/ensure-redis.mjs --stop <dir>      (the exact command is logged on stderr)
 *
 * Steps: find redis-server on PATH; when absent, install Debian's `redis-server` with apt-get (the
 * distro's service is not used); write a config into a temp dir (127.0.0.1 only, protected mode, no
 * snapshots, no append-only file, its working directory the temp dir), start redis-server on a free
 * port as a detached process, wait until it answers PING. `stop()` sends SHUTDOWN NOSAVE (SIGTERM,
 * then SIGKILL when it does not go) and removes the dir. Redis runs as whoever runs this, root too.
 * Plain Node ESM, no dependencies; logs go to stderr only.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { alive, aptInstall, freePort, run, signal, sleep, waitGone, ensureCli, readMarker } from './system.mjs';

const MARKER = '.ensure-redis';
const SAFE_PATH = /^[\w./-]+$/;

const log = (message) => process.stderr.write(`[ensure-redis] ${message}\n`);

/** The redis-server binary: REDIS_SERVER, PATH, or Debian's place; null when not installed. */
function findServer() {
  if (process.env.REDIS_SERVER && existsSync(process.env.REDIS_SERVER)) return process.env.REDIS_SERVER;
  const found = run('sh', ['-c', 'command -v redis-server'], { allowFail: true, quiet: true });
  if (found.ok && found.output) return found.output.split('\n')[0];
  return existsSync('/usr/bin/redis-server') ? '/usr/bin/redis-server' : null;
}

/** Sends one raw RESP command and resolves with the first reply line ('' when the server closed without one, null when unreachable). */
function command(port, parts, timeoutMs = 2_000) {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    let reply = '';
    let done = false;
    const finish = (value) => {
      if (done) return;
      done = true;
      socket.destroy();
      resolve(value);
    };
    socket.setTimeout(timeoutMs, () => finish(null));
    socket.once('connect', () => socket.write(`*${parts.length}\r\n${parts.map((p) => `$${Buffer.byteLength(p)}\r\n${p}\r\n`).join('')}`));
    socket.on('data', (chunk) => {
      reply += chunk.toString('utf8');
      const end = reply.indexOf('\r\n');
      if (end >= 0) finish(reply.slice(0, end));
    });
    socket.once('end', () => finish(reply));
    socket.once('error', () => finish(done ? reply : null));
  });
}

/** Whether `pid` is a redis-server (a pid from an old marker file may belong to another process by now). */
function isRedis(pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('redis');
  } catch {
    return !existsSync('/proc');
  }
}

/** Stops the server of `dir` (SHUTDOWN NOSAVE, SIGTERM, SIGKILL: whichever works first) and removes the dir. */
async function stopServer(dir, pid, port) {
  if (pid && alive(pid) && isRedis(pid)) {
    if (port) await command(port, ['SHUTDOWN', 'NOSAVE']);
    if (!(await waitGone(pid, 10_000))) {
      log(`redis-server (pid ${pid}) did not shut down; SIGTERM`);
      signal(pid, 'SIGTERM');
      if (!(await waitGone(pid, 5_000))) {
        log(`redis-server (pid ${pid}) still running; SIGKILL`);
        signal(pid, 'SIGKILL');
        await waitGone(pid, 5_000);
      }
    }
  }
  rmSync(dir, { recursive: true, force: true });
}

async function waitUntilReady(port, child, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) return false;
    if ((await command(port, ['PING'], 1_000)) === '+PONG') return true;
    await sleep(100);
  }
  throw new Error(`Redis on port ${port} did not answer PING within ${timeoutMs / 1000} s`);
}

/** Starts a throwaway Redis on 127.0.0.1; `stop()` stops it and removes its directory. */
export async function ensureRedis() {
  let server = findServer();
  if (!server) {
    aptInstall(['redis-server'], { what: 'Redis', tag: 'ensure-redis', log });
    server = findServer();
    if (!server) throw new Error('redis-server was installed but not found');
  }
  log(`using ${server}`);

  const dir = mkdtempSync(path.join(os.tmpdir(), 'redis-'));
  if (!SAFE_PATH.test(dir)) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`unexpected characters in temp dir ${dir}`);
  }
  const configFile = path.join(dir, 'redis.conf');
  const logFile = path.join(dir, 'redis.log');
  let pid = null;
  let port = null;

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await stopServer(dir, pid, port);
    log(`stopped and removed ${dir}`);
  };

  try {
    for (let attempt = 1; ; attempt++) {
      port = await freePort();
      writeFileSync(
        configFile,
        [
          '# ensure-redis: a throwaway server',
          'bind 127.0.0.1',
          'protected-mode yes',
          `port ${port}`,
          `dir ${dir}`,
          `logfile ${logFile}`,
          'daemonize no',
          'supervised no',
          'save ""',
          'appendonly no',
          '',
        ].join('\n'),
      );
      const child = spawn(server, [configFile], { cwd: dir, detached: true, stdio: 'ignore' });
      child.on('error', () => undefined);
      child.unref();
      pid = child.pid ?? null;
      writeFileSync(path.join(dir, MARKER), `${pid}\n${port}\n`);
      if (pid && (await waitUntilReady(port, child))) {
        const url = `redis://127.0.0.1:${port}`;
        log(`Redis ready at ${url} (pid ${pid}, dir ${dir})`);
        return { url, stop, dir };
      }
      const tail = existsSync(logFile) ? readFileSync(logFile, 'utf8').trim().split('\n').slice(-3).join(' | ') : '';
      log(`start on port ${port} failed (attempt ${attempt}): ${tail || `exit ${child.exitCode ?? child.signalCode}`}`);
      pid = null;
      if (attempt >= 3) throw new Error(`could not start Redis; see ${logFile}`);
    }
  } catch (err) {
    await stop();
    throw err;
  }
}

/** `--stop <dir>`: stops a server this script started and removes its directory. */
async function stopFromCli(dir) {
  const { resolved, text } = readMarker(dir, MARKER, 'ensure-redis');
  const [pid, port] = text.trim().split('\n').map(Number);
  await stopServer(resolved, pid || null, port || null);
  log(`stopped and removed ${resolved}`);
}

await ensureCli(import.meta.url, { log, stop: stopFromCli, start: ensureRedis });
