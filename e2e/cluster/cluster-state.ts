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

/** What serve-cluster.mjs wrote once everything answered (Playwright starts the tests only after it says so). */
export function clusterState(): ClusterState {
  const file = join(CLUSTER_DATA_DIR, 'cluster.json');
  return { ...(JSON.parse(readFileSync(file, 'utf8')) as Omit<ClusterState, 'dataDir'>), dataDir: CLUSTER_DATA_DIR };
}
