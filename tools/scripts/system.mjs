// Helpers the ensure-* scripts and topology.mjs share: running commands (their output to stderr,
// never to stdout), free ports, installing Debian packages with apt-get without starting the
// distro's services, and watching and signalling processes. Plain Node ESM, no dependencies.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const POLICY_RC = '/usr/sbin/policy-rc.d';

export const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Runs a command; its output goes to stderr (never to our stdout). Throws on failure unless allowFail. */
export function run(command, args, { cwd, env, allowFail = false, quiet = false } = {}) {
  const result = spawnSync(command, args, {
    cwd,
    env: env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.trim();
  if (result.error || result.status !== 0) {
    if (allowFail) return { ok: false, output };
    if (output) process.stderr.write(`${output}\n`);
    throw new Error(`${command} ${args.join(' ')} failed: ${result.error?.message ?? `exit code ${result.status}`}`);
  }
  if (!quiet && output) process.stderr.write(`${output}\n`);
  return { ok: true, output };
}

export function hasCommand(name) {
  return run('sh', ['-c', 'command -v "$0"', name], { allowFail: true, quiet: true }).ok;
}

/** The first port of the kernel's ephemeral range (outgoing connections and `listen(0)` draw from it). */
function ephemeralLow() {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 1024 ? low : 32768;
  } catch {
    return 32768;
  }
}

function canListen(port) {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** Ports this process has handed out: never twice. */
const handedOut = new Set();
const LOWEST_PORT = 15_000;

/**
 * `count` consecutive TCP ports on 127.0.0.1 that are free right now; resolves to the first.
 *
 * Drawn below the kernel's ephemeral range, not with `listen(0)`: a server is started with its port
 * seconds before it binds, and meanwhile every outgoing connection on the machine (to PostgreSQL,
 * Redis, a web server) takes a local port from the ephemeral range. A port from `listen(0)` can be
 * taken that way before its server binds ("Address already in use"); one below the range cannot.
 */
export async function freePort({ count = 1 } = {}) {
  const high = ephemeralLow() - count;
  if (high - LOWEST_PORT < 1000) throw new Error('freePort: no port range below the ephemeral range');
  for (let attempt = 0; attempt < 500; attempt++) {
    const first = LOWEST_PORT + Math.floor(Math.random() * (high - LOWEST_PORT));
    const ports = Array.from({ length: count }, (_, i) => first + i);
    if (ports.some((port) => handedOut.has(port))) continue;
    if (!(await Promise.all(ports.map(canListen))).every(Boolean)) continue;
    for (const port of ports) handedOut.add(port);
    return first;
  }
  throw new Error(`freePort: no ${count} free consecutive ports found`);
}

let aptUpdated = false;

/**
 * Installs Debian packages non-interactively (`apt-get update` once per process); needs root or
 * password-less sudo. `packages`: names, or a function returning them, called after the update.
 * `what` names the software in errors, `tag` the script in the policy-rc.d it writes, `log` logs.
 * Where nothing forbids it yet, a policy-rc.d keeps the packages from starting the distro's service
 * during the install (it would stay running on its default port); it is removed right after.
 */
export function aptInstall(packages, { what, tag, log }) {
  if (!hasCommand('apt-get')) throw new Error(`${what} is not installed and apt-get is not available`);
  const prefix = isRoot() ? [] : hasCommand('sudo') ? ['sudo', '-n', '--preserve-env=DEBIAN_FRONTEND'] : null;
  if (!prefix) throw new Error(`${what} is not installed; installing it needs root (or sudo)`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const apt = (...args) => {
    const [cmd, ...rest] = [...prefix, 'apt-get', ...args];
    run(cmd, rest, { env });
  };
  if (!aptUpdated) {
    log('apt-get update');
    apt('update');
    aptUpdated = true;
  }
  const names = typeof packages === 'function' ? packages() : packages;
  const addPolicy = isRoot() && !existsSync(POLICY_RC);
  if (addPolicy) writeFileSync(POLICY_RC, `#!/bin/sh\n# ${tag}: no service starts during its install\nexit 101\n`, { mode: 0o755 });
  try {
    log(`apt-get install -y ${names.join(' ')}`);
    apt(
      'install',
      '-y',
      '--no-install-recommends',
      '-o',
      'Dpkg::Options::=--force-confdef',
      '-o',
      'Dpkg::Options::=--force-confold',
      ...names,
    );
  } finally {
    if (addPolicy) rmSync(POLICY_RC, { force: true });
  }
}

/** Whether a process is alive (a zombie nobody reaped yet counts as gone). */
export function alive(pid) {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return error.code === 'EPERM';
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return true;
  }
}

/** Sends a signal to a process that may have gone meanwhile. */
export function signal(pid, name) {
  try {
    process.kill(pid, name);
  } catch {
    // already gone
  }
}

/** Waits until the process (or every one of a list) is gone; resolves with whether they all went. */
export async function waitGone(pids, timeoutMs) {
  const list = Array.isArray(pids) ? pids : [pids];
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!list.some(alive)) return true;
    await sleep(100);
  }
  return !list.some(alive);
}

/**
 * The marker an ensure-* script leaves in a directory it made: its text, or an error saying the
 * directory is not one of `script`'s (so `--stop` never touches anything else).
 */
export function readMarker(dir, marker, script) {
  const resolved = path.resolve(dir ?? '');
  const markerFile = path.join(resolved, marker);
  if (!dir || !existsSync(markerFile)) throw new Error(`${resolved} is not a directory made by ${script}`);
  return { resolved, text: readFileSync(markerFile, 'utf8') };
}

/**
 * The command line of an ensure-* script run directly (`moduleUrl`: its import.meta.url): without
 * arguments `start()` runs and its URL is printed (the only thing on stdout), the server left
 * running; `--stop <dir>` runs `stop(dir)`. A failure is logged and exits 1.
 */
export async function ensureCli(moduleUrl, { start, stop, log }) {
  if (!process.argv[1] || moduleUrl !== pathToFileURL(path.resolve(process.argv[1])).href) return;
  try {
    if (process.argv[2] === '--stop') {
      await stop(process.argv[3]);
    } else {
      const { url, dir } = await start();
      log(`left running; stop it with: node ${path.relative(process.cwd(), process.argv[1]) || process.argv[1]} --stop ${dir}`);
      process.stdout.write(`${url}\n`);
    }
  } catch (err) {
    log(err instanceof Error ? err.message : String(err));
    process.exit(1);
  }
}
