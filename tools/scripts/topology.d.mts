// Types for TypeScript callers (the benchmark) of topology.mjs.
import type { ChildProcess } from 'node:child_process';

export type TopologyProcess = {
  name: string;
  role: 'web' | 'worker';
  child: ChildProcess;
  port: number;
  assetPort: number;
  /** The server's operator origin port (a web server's; a worker has none listening). */
  opsPort: number;
  url: string;
  opsUrl: string;
};
export type Topology = {
  url: string;
  assetUrl: string;
  /** nginx's operator origin (OPS_URL of every server). */
  opsUrl: string;
  port: number;
  opsPort: number;
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
  opsPort?: number;
  env?: Record<string, string>;
  output?: (line: string) => void;
  readyTimeoutMs?: number;
}): Promise<Topology>;
