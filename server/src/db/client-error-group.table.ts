import type { Selectable } from 'kysely';

/**
 * Client errors grouped by area, version, route and top frame (domains/ops/telemetry/client-errors.repository.ts):
 * how many reports, the first and the last, and the last one's kind, message and mapped stack.
 */
export interface ClientErrorGroupTable {
  /** SHA-256 (hex, 32 characters) of area, version, route and top frame. */
  group_key: string;
  area: string;
  version: string;
  /** The route's name; '' outside a route. */
  route: string;
  /** `function (file:line:column)`, at most 300 characters. */
  top_frame: string;
  kind: string;
  /** Scrubbed, at most 300 characters. */
  message: string;
  /** The mapped stack as JSON (MappedStackFrame[]), at most 16 frames. */
  stack: string;
  count: number;
  /** ISO, UTC. */
  first_at: string;
  last_at: string;
}

export type ClientErrorGroupRow = Selectable<ClientErrorGroupTable>;
