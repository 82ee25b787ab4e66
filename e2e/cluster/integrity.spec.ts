import { test } from '../tests/fixtures.ts';
import { operatorSession } from '../tests/operator.ts';
import { tamperedChunkScenario } from '../tests/tamper.ts';
import { clusterState } from './cluster-state.ts';

// Through nginx to two web servers; the worker keeps the schedule, a web server hears the browser's report.
test('one byte changed in a released checkout chunk: refused, contained, shown in the console, fallen back; the next load works', async ({
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
    // An operator of the cluster's database, signed in through nginx's operator origin.
    operator: await operatorSession(cluster.opsUrl, cluster.dataDir, { DATABASE_URL: cluster.databaseUrl }),
    opsUrl: cluster.opsUrl,
    metricsToken: cluster.metricsToken,
  });
});
