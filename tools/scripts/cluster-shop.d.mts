// Types for TypeScript callers (the end-to-end tests on the cluster) of cluster-shop.mjs.
import type { Topology } from './topology.d.mts';

export type ClusterShop = {
  shop: Topology;
  dataDir: string;
  databaseUrl: string;
  redisUrl: string;
  releaseEnv: Record<string, string>;
  /** A metrics credential (Prometheus's bearer token for /api/metrics). */
  metricsToken: string;
  cleanups: (() => unknown)[];
  stop(): Promise<void>;
};
export function startClusterShop(options: {
  dataDir: string;
  servers?: number;
  workers?: number;
  port?: number;
  opsPort?: number;
  env?: Record<string, string>;
  prepare?: (cleanups: (() => unknown)[]) => Promise<{ releaseEnv?: Record<string, string>; env?: Record<string, string> } | void>;
  output?: (line: string) => void;
  readyTimeoutMs?: number;
}): Promise<ClusterShop>;
export function createMetricsCredential(env: Record<string, string>, name?: string): Promise<string>;
