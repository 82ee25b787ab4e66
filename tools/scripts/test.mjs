// `npm test`: installs what is missing (pnpm, dependencies, Debian's
// chromium, PostgreSQL, Redis, nginx, prometheus) and runs every test: typecheck, lint, the alerting rules,
// the build, unit, API on SQLite and on PostgreSQL, several servers behind nginx on PostgreSQL and Redis,
// and end-to-end in Chromium against the built shop (the release specs on a shop of their own, the rest
// on another, and on the cluster), in lanes side by side.
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { ensureDependencies, log, pnpmRun, root, run, seconds, step, typecheckAll } from './lib.mjs';
import { buildAll } from './build.mjs';
import { ensurePostgres } from './ensure-postgres.mjs';
import { ensureChromium } from './ensure-chromium.mjs';
import { testAlertRules } from './ensure-prometheus.mjs';
import { failedPlaywrightTests, failedVitestTests } from './test-reports.mjs';

const reports = join(root, '.data', 'test-reports');
/** The cluster's end-to-end nginx port: not the single-server shop's (E2E_PORT, 4310), which runs beside it. */
const CLUSTER_E2E_PORT = 4410;
/** The shop of the end-to-end tests that release (E2E_SPECS=releases): its ports never meet the other two's. */
const RELEASES_E2E_PORT = 4350;
const counts = { passed: 0, failed: 0, skipped: 0 };

function countVitest(file, failedTests) {
  const report = JSON.parse(readFileSync(file, 'utf8'));
  counts.passed += report.numPassedTests;
  counts.failed += report.numFailedTests;
  counts.skipped += report.numPendingTests + (report.numTodoTests ?? 0);
  failedTests.push(...failedVitestTests(report, root));
}

function countPlaywright(file, failedTests) {
  const report = JSON.parse(readFileSync(file, 'utf8'));
  const { stats } = report;
  counts.passed += stats.expected + stats.flaky;
  counts.failed += stats.unexpected;
  counts.skipped += stats.skipped;
  failedTests.push(...failedPlaywrightTests(report));
}

/**
 * Vitest runs one test file per core less one by default: one file at a time on two cores. The
 * API's files mostly wait on sockets, databases and child processes, and the others' on jsdom
 * starting, so one per core (at least two) takes clearly less time (figures: tools/bench/results.md).
 * Every file
 * has its own database, data directory and ports, so files never share state.
 */
const parallelFiles = ['--maxWorkers', String(Math.max(2, availableParallelism()))];

/** Runs vitest in a package; its JSON report counts the tests and names the failing ones for `stage`. */
async function vitest(filter, name, { env = process.env, extra = parallelFiles, failedTests, stdio }) {
  const output = join(reports, `${name}.json`);
  try {
    const args = ['run', ...extra, '--reporter=default', '--reporter=json', `--outputFile.json=${output}`];
    const options = { env, ...(stdio ? { stdio } : {}) };
    // '.': the workspace's root, where pnpm's --filter finds no package to run in.
    await (filter === '.'
      ? run(join(root, 'node_modules', '.bin', 'vitest'), args, options)
      : pnpmRun(['--filter', filter, 'exec', 'vitest', ...args], options));
  } finally {
    if (existsSync(output)) countVitest(output, failedTests);
  }
}

/** Runs a Playwright suite of the e2e package (`script`: its package script). */
async function playwright(script, name, { env = process.env, failedTests, stdio }) {
  const output = join(reports, `${name}.json`);
  try {
    await pnpmRun(['--filter', '@shop/e2e', script === 'test' ? 'test' : 'run', ...(script === 'test' ? [] : [script])], {
      env: { ...env, PLAYWRIGHT_JSON_OUTPUT_NAME: output },
      ...(stdio ? { stdio } : {}),
    });
  } finally {
    if (existsSync(output)) countPlaywright(output, failedTests);
  }
}

const since = performance.now();
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });

/**
 * Every stage runs even when an earlier one failed (a red unit test must not hide a red end-to-end
 * test); a stage whose prerequisite failed is reported as not run. The failures of all stages are
 * repeated at the end.
 */
const failures = [];
async function stage(title, action) {
  const failedTests = [];
  try {
    return { ok: true, value: await step(title, () => action(failedTests)) };
  } catch (error) {
    const tests = failedTests.map((test) => `\n      ${test}`).join('');
    failures.push(`${title}: ${error instanceof Error ? error.message : String(error)}${tests}`);
    log(`${title}: FAILED`);
    return { ok: false };
  }
}
const notRun = (title, because) => {
  failures.push(`${title}: not run (${because})`);
  log(`${title}: not run (${because})`);
};

const installed = await stage('Installing what is missing (pnpm, dependencies, Chromium)', async () => {
  await ensureDependencies();
  await ensureChromium();
});
if (installed.ok) {
  // Side by side: each is one process on one core (the typecheck two), and each prints only what it finds.
  await Promise.all([
    stage('Typecheck (tsgo: the browser parts, the console and the kernel as one program, everything on Node as another)', () =>
      typecheckAll(),
    ),
    stage('Lint (eslint, with area boundary rules)', () => run(join(root, 'node_modules', '.bin', 'eslint'), ['.', '--max-warnings=0'])),
    stage('Format (prettier --check)', () => run(join(root, 'node_modules', '.bin', 'prettier'), ['--check', '--log-level=warn', '.'])),
    // Debian's prometheus package provides promtool; installed when absent (its service is not started).
    stage('Alerting rules (promtool check rules, promtool test rules: monitoring/prometheus)', () => testAlertRules()),
  ]);
  const built = await stage('Building every part', () => buildAll());

  const laneLogs = [];
  /** A lane whose output goes to a file, printed when every lane has ended, so outputs never interleave. */
  const quietLane = (name) => {
    const file = join(reports, `${name}-lane.log`);
    const fd = openSync(file, 'w');
    laneLogs.push({ name, file, fd });
    return { stdio: ['ignore', fd, fd] };
  };
  const releaseTitle = 'End-to-end tests in Chromium: releases, canaries, rollbacks, switches, tampering (a shop of their own)';
  const shopTitle = 'End-to-end tests in Chromium: the shop as shoppers and operators use it';
  const clusterTitles = [
    ['local', 'Multi-server tests: 2 web servers and 2 workers behind nginx on PostgreSQL and Redis, the release origin on disk'],
    [
      's3',
      'Multi-server tests: 2 web servers and 2 workers behind nginx on PostgreSQL and Redis, the release origin in a local S3 bucket (the files about releases: ORIGIN_DEPENDENT)',
    ],
  ];
  const clusterE2eTitle = 'End-to-end tests on the cluster (nginx, two web servers, PostgreSQL)';
  if (!built.ok) for (const title of [releaseTitle, shopTitle]) notRun(title, 'the build failed');

  /**
   * Lanes side by side, each its own servers, ports and data. The end-to-end tests that release run
   * on a shop of their own from the build on: they mostly wait on canary timers, so they fill the
   * cores the unit and API tests leave idle. The end-to-end tests that only read the shop (on
   * another shop: they never meet a release) and the cluster's lane follow the API tests.
   */
  const releaseLane = built.ok
    ? stage(releaseTitle, (failedTests) =>
        playwright('test', 'e2e-releases', {
          env: { ...process.env, E2E_SPECS: 'releases', E2E_PORT: String(RELEASES_E2E_PORT) },
          failedTests,
          ...quietLane('releases'),
        }),
      )
    : null;

  // One run for every package's units (vitest.units.config.ts): one worker pool across packages.
  await stage('Unit tests (the kernel, the release tool, the gateway simulator, the S3 client, the areas and the shell)', (failedTests) =>
    vitest('.', 'units', { extra: [...parallelFiles, '--config', 'vitest.units.config.ts'], failedTests }),
  );
  // The two engines side by side: each file has its own database, data directory and ports.
  const postgres = await stage('Starting PostgreSQL on loopback', () => ensurePostgres());
  await Promise.all([
    stage('API tests on SQLite', (failedTests) =>
      vitest('@shop/server', 'api-sqlite', { env: { ...process.env, DATABASE_URL: '' }, failedTests }),
    ),
    postgres.ok
      ? stage('API tests on PostgreSQL', (failedTests) =>
          vitest('@shop/server', 'api-postgres', {
            env: { ...process.env, DATABASE_URL: postgres.value.url },
            failedTests,
            ...quietLane('postgres'),
          }),
        ).finally(() => postgres.value.stop())
      : notRun('API tests on PostgreSQL', 'PostgreSQL did not start'),
  ]);

  const shopLane = built.ok
    ? stage(shopTitle, (failedTests) => playwright('test', 'e2e-shop', { env: { ...process.env, E2E_SPECS: 'shop' }, failedTests }))
    : null;
  const quiet = quietLane('cluster');
  const clusterLane = (async () => {
    if (!built.ok) {
      for (const title of [...clusterTitles.map(([, title]) => title), clusterE2eTitle]) notRun(title, 'the build failed');
      return;
    }
    // Separate processes from the built server, as `npm run start:cluster` runs them (server/test-cluster/global-setup.mjs
    // starts and stops PostgreSQL, Redis, nginx and, for the second run, a local S3 server itself).
    for (const [origin, title] of clusterTitles) {
      await stage(title, (failedTests) =>
        vitest('@shop/server', `api-cluster-${origin}`, {
          env: { ...process.env, CLUSTER_ORIGIN: origin },
          extra: ['--config', 'test-cluster/vitest.config.ts', '--reporter', join(root, 'server', 'test-cluster', 'failure-log.mjs')],
          failedTests,
          ...quiet,
        }),
      );
    }
    // One topology start (nginx, two web servers, a worker, PostgreSQL, Redis) for a handful of
    // tests of what only the cluster has: nginx's page cache, two servers, the same policy from each.
    await stage(clusterE2eTitle, (failedTests) =>
      playwright('test:cluster', 'e2e-cluster', { env: { ...process.env, E2E_PORT: String(CLUSTER_E2E_PORT) }, failedTests, ...quiet }),
    );
  })();
  await Promise.all([releaseLane, shopLane, clusterLane]);
  for (const { name, file, fd } of laneLogs) {
    closeSync(fd);
    log(`The ${name} lane's output (${file}):`);
    process.stdout.write(readFileSync(file, 'utf8'));
  }
}
log(`All tests finished in ${seconds(since)}`);
if (failures.length > 0) process.stderr.write(`\nFailed stages:\n${failures.map((f) => `  - ${f}`).join('\n')}\n`);
process.stdout.write(`\nTests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`);
if (failures.length > 0 || counts.failed > 0 || counts.passed === 0) process.exit(1);
