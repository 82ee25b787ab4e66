#!/usr/bin/env node
/**
 * Prometheus for the shop's alerting rules (monitoring/prometheus): `promtool` for their unit tests
 * in `npm test`, and a throwaway server on 127.0.0.1 for `npm run start:cluster -- --prometheus`.
 *
 *   import { testAlertRules, startPrometheus } from './ensure-prometheus.mjs';
 *   await testAlertRules();                       // promtool check rules + promtool test rules
 *   const { url, stop } = await startPrometheus({ targets: [{ job: 'shop-web', address: '127.0.0.1:3000' }], token });
 *
 * Run directly, it runs the rules' tests: `node tools/scripts/ensure-prometheus.mjs`.
 *
 * Steps: find promtool / prometheus (PROMTOOL, PROMETHEUS, PATH, Debian's place); when absent, install
 * Debian's `prometheus` package with apt-get (no service starts during the install: system.mjs's
 * policy-rc.d; should the distro's service run afterwards anyway, it is stopped and disabled). The
 * server gets a config, the rules and its data in a temp dir, listens on 127.0.0.1 only, and
 * `stop()` ends it (SIGTERM, then SIGKILL) and removes the dir. Plain Node ESM, no dependencies.
 */
import { spawn } from 'node:child_process';
import { closeSync, copyFileSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { alive, aptInstall, freePort, hasCommand, isRoot, run, signal, sleep, waitGone } from './system.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const RULES_DIR = path.join(root, 'monitoring', 'prometheus');
export const RULES_FILE = path.join(RULES_DIR, 'alerts.yml');
export const RULES_TEST_FILE = path.join(RULES_DIR, 'alerts.test.yml');

const log = (message) => process.stderr.write(`[ensure-prometheus] ${message}\n`);

/** A binary of Debian's prometheus package: `env` names it, else PATH, else /usr/bin; null when not installed. */
function find(name, env) {
  if (process.env[env] && existsSync(process.env[env])) return process.env[env];
  const found = run('sh', ['-c', 'command -v "$0"', name], { allowFail: true, quiet: true });
  if (found.ok && found.output) return found.output.split('\n')[0];
  return existsSync(`/usr/bin/${name}`) ? `/usr/bin/${name}` : null;
}

/** Debian's service, should its install have started it anyway: stopped and disabled (the shop runs its own on loopback). */
function stopDistroService() {
  const sudo = isRoot() ? [] : hasCommand('sudo') ? ['sudo', '-n'] : null;
  if (!sudo) return;
  const as = (cmd, args) => run(sudo[0] ?? cmd, sudo.length ? [...sudo.slice(1), cmd, ...args] : args, { allowFail: true, quiet: true });
  if (hasCommand('systemctl') && as('systemctl', ['is-active', '--quiet', 'prometheus']).ok) {
    log("Debian's prometheus.service is running: stopping and disabling it");
    as('systemctl', ['disable', '--now', 'prometheus']);
  }
  if (existsSync('/etc/init.d/prometheus') && as('/etc/init.d/prometheus', ['status']).ok) {
    log("Debian's prometheus service is running: stopping it");
    as('/etc/init.d/prometheus', ['stop']);
  }
}

/** The path of `name` (promtool or prometheus), installing Debian's `prometheus` package when absent. */
function ensureBinary(name, env) {
  let binary = find(name, env);
  if (binary) return binary;
  aptInstall(['prometheus'], { what: 'Prometheus (promtool)', tag: 'ensure-prometheus', log });
  stopDistroService();
  binary = find(name, env);
  if (!binary) throw new Error(`${name} is not available: Debian's prometheus package was installed but ${name} was not found`);
  return binary;
}

export const ensurePromtool = () => ensureBinary('promtool', 'PROMTOOL');

/** `promtool check rules` then `promtool test rules` (every alert: a case where it fires and one where it does not). */
export async function testAlertRules() {
  let promtool;
  try {
    promtool = ensurePromtool();
  } catch (error) {
    throw new Error(
      `promtool is unavailable, the alerting rules cannot be tested: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  log(`using ${promtool}`);
  run(promtool, ['check', 'rules', RULES_FILE], { cwd: RULES_DIR });
  run(promtool, ['test', 'rules', RULES_TEST_FILE], { cwd: RULES_DIR });
}

function isPrometheus(pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('prometheus');
  } catch {
    return !existsSync('/proc');
  }
}

async function waitUntilReady(url, child, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) return false;
    const ok = await fetch(`${url}/-/ready`).then(
      (res) => res.ok,
      () => false,
    );
    if (ok) return true;
    await sleep(200);
  }
  throw new Error(`Prometheus at ${url} was not ready within ${timeoutMs / 1000} s`);
}

/**
 * Starts Prometheus on 127.0.0.1 scraping `targets` (host:port of each server, grouped by job) at
 * /api/metrics with a metrics credential `token` (`npm run credentials -- metrics-create`; kept in its
 * temp dir, mode 600), the shop's rules loaded;
 * `stop()` ends it and removes its temp dir.
 */
export async function startPrometheus({ targets, token, scrapeInterval = '15s' }) {
  const server = ensureBinary('prometheus', 'PROMETHEUS');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'prometheus-'));
  let pid = null;
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    if (pid && alive(pid) && isPrometheus(pid)) {
      signal(pid, 'SIGTERM');
      if (!(await waitGone(pid, 10_000))) {
        signal(pid, 'SIGKILL');
        await waitGone(pid, 5_000);
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    copyFileSync(RULES_FILE, path.join(dir, 'alerts.yml'));
    const tokenFile = path.join(dir, 'metrics-token');
    writeFileSync(tokenFile, token, { mode: 0o600 });
    const jobs = new Map();
    for (const target of targets) jobs.set(target.job, [...(jobs.get(target.job) ?? []), target]);
    const config = [
      'global:',
      `  scrape_interval: ${scrapeInterval}`,
      `  evaluation_interval: ${scrapeInterval}`,
      'rule_files:',
      `  - ${JSON.stringify(path.join(dir, 'alerts.yml'))}`,
      'scrape_configs:',
      ...[...jobs].flatMap(([job, list]) => [
        `  - job_name: ${JSON.stringify(job)}`,
        '    metrics_path: /api/metrics',
        '    authorization:',
        '      type: Bearer',
        `      credentials_file: ${JSON.stringify(tokenFile)}`,
        '    static_configs:',
        `      - targets: [${list.map((t) => JSON.stringify(t.address)).join(', ')}]`,
      ]),
      '',
    ].join('\n');
    writeFileSync(path.join(dir, 'prometheus.yml'), config);
    const logFile = path.join(dir, 'prometheus.log');
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      const out = openSync(logFile, 'a');
      const child = spawn(
        server,
        [
          `--config.file=${path.join(dir, 'prometheus.yml')}`,
          `--storage.tsdb.path=${path.join(dir, 'data')}`,
          `--web.listen-address=127.0.0.1:${port}`,
          '--storage.tsdb.retention.time=1d',
        ],
        { cwd: dir, detached: true, stdio: ['ignore', out, out] },
      );
      child.on('error', () => undefined);
      child.unref();
      closeSync(out);
      pid = child.pid ?? null;
      if (pid && (await waitUntilReady(url, child))) {
        log(`Prometheus ready at ${url} (pid ${pid}, dir ${dir})`);
        return { url, dir, stop };
      }
      pid = null;
      const tail = existsSync(logFile) ? readFileSync(logFile, 'utf8').trim().split('\n').slice(-3).join(' | ') : '';
      log(`start on port ${port} failed (attempt ${attempt}): ${tail}`);
      if (attempt >= 3) throw new Error(`could not start Prometheus; see ${logFile}`);
    }
  } catch (error) {
    await stop();
    throw error;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  try {
    await testAlertRules();
    log('the alerting rules pass their tests');
  } catch (error) {
    log(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
}
