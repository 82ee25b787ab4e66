import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLUSTER_DATA_DIR } from '../playwright.cluster.config.ts';

export type ClusterState = {
  url: string;
  assetUrl: string;
  gatewayUrl: string;
  web: string[];
  /** nginx's operator origin. */
  opsUrl: string;
  /** A metrics credential (Prometheus's bearer token). */
  metricsToken: string;
  /** The cluster's PostgreSQL (the owner's commands run against it). */
  databaseUrl: string;
  dataDir: string;
};

/**
 * What serve-cluster.mjs wrote once everything answered. Playwright starts the tests as soon as
 * nginx answers, which may be a moment before the file is written: it is waited for, briefly.
 */
export function clusterState(): ClusterState {
  const file = join(CLUSTER_DATA_DIR, 'cluster.json');
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      return { ...(JSON.parse(readFileSync(file, 'utf8')) as Omit<ClusterState, 'dataDir'>), dataDir: CLUSTER_DATA_DIR };
    } catch (error) {
      if (Date.now() > deadline) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
    }
  }
}
