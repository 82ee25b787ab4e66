// Types for TypeScript callers (the benchmark) of topology.mjs.
import type { ChildProcess } from 'node:child_process';

export type TopologyProcess = { name: string; role: 'web' | 'worker'; child: ChildProcess; port: number; assetPort: number; url: string };
export type Topology = {
  url: string;
  assetUrl: string;
  port: number;
  gatewayUrl: string;
  nginxDir: string;
  web: TopologyProcess[];
  workers: TopologyProcess[];
  stop(): Promise<void>;
};
/** `count` consecutive free ports below the kernel's ephemeral range; resolves to the first. */
export function freePort(options?: { count?: number }): Promise<number>;
export function startTopology(options: {
  dataDir: string;
  databaseUrl: string;
  redisUrl: string;
  servers?: number;
  workers?: number;
  port?: number;
  env?: Record<string, string>;
  output?: (line: string) => void;
  readyTimeoutMs?: number;
}): Promise<Topology>;
