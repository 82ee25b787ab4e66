/** What /ops shows of server renders that failed in the sandbox (GET /api/ops/render-failures). */
import { Type, type Static } from '@sinclair/typebox';

export type RenderFailureEntry = Static<typeof RenderFailureEntry>;
export const RenderFailureEntry = Type.Object({
  /** ISO time. */
  at: Type.String(),
  /** shell or an area. */
  part: Type.String(),
  version: Type.String(),
  /** error (the part threw), timeout, memory, hang (the renderer did not answer), crash (it ended). */
  reason: Type.String(),
  /** The page's path (no query). */
  path: Type.String(),
  /** The request whose page it was: its log lines carry the same id. */
  requestId: Type.String(),
  /** The server (host name and process) whose renderer it was. */
  server: Type.String(),
  message: Type.String(),
});

export type RenderFailureReport = Static<typeof RenderFailureReport>;
export const RenderFailureReport = Type.Object({
  /** The newest failures of every server, newest first (at most 100). */
  failures: Type.Array(RenderFailureEntry),
});
