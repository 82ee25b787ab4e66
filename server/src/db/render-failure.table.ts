import type { Generated, Selectable } from 'kysely';

/**
 * Server renders that failed in the sandbox, newest kept (domains/ops/telemetry/render-failures.repository.ts):
 * which part and version, why, the page's path and the request that saw it, and which server.
 */
export interface RenderFailureTable {
  failure_id: Generated<number>;
  /** ISO, UTC. */
  at: string;
  /** shell or an area. */
  part: string;
  version: string;
  /** error, timeout, memory, hang, crash. */
  reason: string;
  /** The page's path (no query), at most 200 characters. */
  path: string;
  request_id: string;
  /** The server's host name and process id. */
  server: string;
  /** What failed (first line and where), at most 500 characters. */
  message: string;
}

export type RenderFailureRow = Selectable<RenderFailureTable>;
