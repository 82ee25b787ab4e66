#!/usr/bin/env node
/**
 * Runs a throwaway nginx with the given `http { … }` contents (upstream and server blocks).
 *
 *   import { ensureNginx } from './ensure-nginx.mjs';
 *   const nginx = await ensureNginx({ config: ({ dir }) => `server { listen 127.0.0.1:8080; … }` });
 *   await nginx.reload(otherConfig);   // tested with nginx -t first; the old one stays on failure
 *   await nginx.stop();
 *
 * `config` is the text inside `http { }`, or a function of `{ dir }` returning it (cache paths
 * belong under `dir`, which `stop()` removes).
 *
 * Run directly, it serves a tiny test page on a free port, prints its URL on stdout and leaves
 * nginx running:
 *   node tools/scripts/ensure-nginx.mjs
 *   node tools/scripts/ensure-nginx.mjs --stop <dir>      (the exact command is logged on stderr)
 *
 * Steps: find /usr/sbin/nginx (NGINX_BIN, then PATH); when absent, install Debian's `nginx-light`
 * (else `nginx`) with apt-get (the distro's service is not used); write a whole nginx.conf into a
 * temp dir (its pid file, error log and every temporary path inside it), check it with `nginx -t`,
 * start the master (it daemonizes; its pid file is in the dir). `stop()` sends `-s quit`, waits for
 * the master to go (SIGKILL to it and its workers after 10 s) and removes the dir. As root the
 * workers run as nginx's default user; the dir is made traversable (0711) so that they reach the
 * cache and temporary directories nginx creates for them inside it.
 * Plain Node ESM, no dependencies; logs go to stderr only.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { alive, aptInstall, freePort, isRoot, run, signal, sleep, waitGone, ensureCli, readMarker } from './system.mjs';

const MARKER = '.ensure-nginx';
const SAFE_PATH = /^[\w./-]+$/;
const DEFAULT_BIN = '/usr/sbin/nginx';
const MIME_TYPES = '/etc/nginx/mime.types';
const TEMP_PATHS = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'];

const log = (message) => process.stderr.write(`[ensure-nginx] ${message}\n`);

/** The nginx binary: NGINX_BIN, /usr/sbin/nginx, or PATH; null when not installed. */
function findNginx() {
  if (process.env.NGINX_BIN && existsSync(process.env.NGINX_BIN)) return process.env.NGINX_BIN;
  if (existsSync(DEFAULT_BIN)) return DEFAULT_BIN;
  const found = run('sh', ['-c', 'command -v nginx'], { allowFail: true, quiet: true });
  return found.ok && found.output ? found.output.split('\n')[0] : null;
}

/** Debian's nginx-light where the archive has it (asked after `apt-get update`), else nginx. */
function nginxPackage() {
  const candidate = run('apt-cache', ['policy', 'nginx-light'], { allowFail: true, quiet: true });
  return [candidate.ok && /Candidate: (?!\(none\))/.test(candidate.output) ? 'nginx-light' : 'nginx'];
}

/** The whole nginx.conf: everything nginx writes stays inside `dir`; `http` is the caller's part. */
function mainConfig(dir, http) {
  const temp = (name) => `  ${name}_temp_path ${path.join(dir, 'temp', name)};`;
  return [
    '# ensure-nginx: a throwaway server; everything it writes stays in this directory',
    'worker_processes 2;',
    `pid ${path.join(dir, 'nginx.pid')};`,
    `error_log ${path.join(dir, 'error.log')} warn;`,
    // Long-lived connections (server-sent events) must not hold up a quit or reload for long.
    'worker_shutdown_timeout 5s;',
    '',
    'events {',
    '  worker_connections 1024;',
    '}',
    '',
    'http {',
    ...(existsSync(MIME_TYPES) ? [`  include ${MIME_TYPES};`] : []),
    '  default_type application/octet-stream;',
    `  access_log ${path.join(dir, 'access.log')};`,
    ...TEMP_PATHS.map(temp),
    '',
    http
      .trim()
      .split('\n')
      .map((line) => (line ? `  ${line}` : line))
      .join('\n'),
    '}',
    '',
  ].join('\n');
}

function readPid(dir) {
  try {
    const pid = Number(readFileSync(path.join(dir, 'nginx.pid'), 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/** Whether `pid` is an nginx (a pid file left behind may name another process by now). */
function isNginx(pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('nginx');
  } catch {
    return !existsSync('/proc');
  }
}

/** The processes whose parent is `pid` (nginx's workers outlive a master killed with SIGKILL). */
function childrenOf(pid) {
  if (!existsSync('/proc')) return [];
  const children = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) children.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return children;
}

/** Stops the nginx of `dir` (quit, then SIGKILL after 10 s) and removes the dir. */
async function stopServer(binary, dir, configFile) {
  const pid = readPid(dir);
  if (pid && alive(pid) && isNginx(pid)) {
    const workers = childrenOf(pid);
    run(binary, ['-c', configFile, '-p', dir, '-e', path.join(dir, 'error.log'), '-s', 'quit'], { allowFail: true, quiet: true });
    if (!(await waitGone([pid, ...workers], 10_000))) {
      log(`nginx (pid ${pid}) did not quit within 10 s; SIGKILL`);
      for (const p of [pid, ...workers, ...childrenOf(pid)]) {
        signal(p, 'SIGKILL');
      }
      await waitGone([pid, ...workers], 5_000);
    }
  }
  rmSync(dir, { recursive: true, force: true });
}

/** The `http` contents from a string or a function of { dir }. */
const httpPart = (config, dir) => (typeof config === 'function' ? config({ dir }) : String(config ?? ''));

/**
 * Starts nginx with `config` as the contents of its `http { }` block.
 * Resolves with { dir, stop(), reload(newConfig) }; `stop()` stops it and removes `dir`.
 */
export async function ensureNginx({ config } = {}) {
  let binary = findNginx();
  if (!binary) {
    aptInstall(nginxPackage, { what: 'nginx', tag: 'ensure-nginx', log });
    binary = findNginx();
    if (!binary) throw new Error('nginx was installed but not found');
  }
  log(`using ${binary}`);

  const dir = mkdtempSync(path.join(os.tmpdir(), 'nginx-'));
  if (!SAFE_PATH.test(dir)) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`unexpected characters in temp dir ${dir}`);
  }
  // As root, the workers run as an unprivileged user: they must pass through the dir to the
  // cache and temporary directories nginx makes (and hands to them) inside it; listing is not needed.
  if (isRoot()) chmodSync(dir, 0o711);
  mkdirSync(path.join(dir, 'temp'));
  const configFile = path.join(dir, 'nginx.conf');
  const errorLog = path.join(dir, 'error.log');
  writeFileSync(path.join(dir, MARKER), `${binary}\n`);
  const nginx = (...args) =>
    run(binary, ['-c', configFile, '-p', dir, '-e', errorLog, ...args], { cwd: dir, allowFail: true, quiet: true });

  /** Writes the config (to nginx.conf only once `nginx -t` accepts it). */
  const writeChecked = (http) => {
    const candidate = path.join(dir, 'nginx.conf.next');
    writeFileSync(candidate, mainConfig(dir, http));
    const tested = run(binary, ['-t', '-q', '-c', candidate, '-p', dir, '-e', errorLog], { cwd: dir, allowFail: true, quiet: true });
    if (!tested.ok) {
      rmSync(candidate, { force: true });
      throw new Error(`nginx rejected the configuration:\n${tested.output}`);
    }
    renameSync(candidate, configFile);
  };

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await stopServer(binary, dir, configFile);
    log(`stopped and removed ${dir}`);
  };

  const reload = async (newConfig) => {
    if (stopped) throw new Error('nginx was stopped');
    const before = readFileSync(configFile, 'utf8');
    writeChecked(httpPart(newConfig, dir));
    const reloaded = nginx('-s', 'reload');
    if (!reloaded.ok) {
      writeFileSync(configFile, before);
      throw new Error(`nginx -s reload failed: ${reloaded.output}`);
    }
    log('configuration reloaded');
  };

  try {
    writeChecked(httpPart(config, dir));
    const started = nginx();
    if (!started.ok) throw new Error(`nginx did not start: ${started.output}`);
    // The master writes its pid file right after it daemonized.
    const deadline = Date.now() + 10_000;
    while (!readPid(dir)) {
      if (Date.now() > deadline) throw new Error(`nginx wrote no pid file; see ${errorLog}`);
      await sleep(50);
    }
    log(`nginx running (pid ${readPid(dir)}, dir ${dir})`);
    return { dir, stop, reload };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** `--stop <dir>`: stops an nginx this script started and removes its directory. */
async function stopFromCli(dir) {
  const { resolved, text } = readMarker(dir, MARKER, 'ensure-nginx');
  const binary = text.trim() || findNginx();
  await stopServer(binary, resolved, path.join(resolved, 'nginx.conf'));
  log(`stopped and removed ${resolved}`);
}

await ensureCli(import.meta.url, {
  log,
  stop: stopFromCli,
  // A tiny test page on a free port.
  async start() {
    const port = await freePort();
    const { dir } = await ensureNginx({
      config: `server {\n  listen 127.0.0.1:${port};\n  location / {\n    default_type text/plain;\n    return 200 "ensure-nginx\\n";\n  }\n}`,
    });
    return { url: `http://127.0.0.1:${port}/`, dir };
  },
});
