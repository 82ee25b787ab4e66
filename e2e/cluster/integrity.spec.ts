import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../tests/fixtures.ts';
import { tamperedChunkScenario } from '../tests/tamper.ts';
import { clusterState } from './cluster-state.ts';

// Through nginx to two web servers; the worker keeps the schedule, a web server hears the browser's report.
test('one byte changed in a released checkout chunk: refused, contained, shown on /ops, fallen back; the next load works', async ({
  page,
  request,
}) => {
  // A release, a check, the browser's report and the fallback, one after another.
  test.setTimeout(120_000);
  const cluster = clusterState();
  await tamperedChunkScenario({
    page,
    request,
    dataDir: cluster.dataDir,
    releaseEnv: {},
    operator: { name: 'spravca', password: readFileSync(join(cluster.dataDir, 'operator-password'), 'utf8').trim() },
    metricsToken: cluster.operatorToken,
  });
});
