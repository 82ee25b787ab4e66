/** The backups' record the operator sees on /ops: the last success, the last failure, the schedule. */
import { Type, type Static } from '@sinclair/typebox';

/** One backup attempt: its name (the UTC start time), where it went, when, how long, how big, and why it failed. */
export type BackupAttempt = Static<typeof BackupAttempt>;
export const BackupAttempt = Type.Object({
  name: Type.String(),
  destination: Type.String(),
  startedAt: Type.String(),
  finishedAt: Type.String(),
  durationMs: Type.Number({ minimum: 0 }),
  bytes: Type.Union([Type.Number({ minimum: 0 }), Type.Null()]),
  error: Type.Union([Type.String(), Type.Null()]),
});

export type BackupOverview = Static<typeof BackupOverview>;
export const BackupOverview = Type.Object({
  lastSuccess: Type.Union([BackupAttempt, Type.Null()]),
  lastFailure: Type.Union([BackupAttempt, Type.Null()]),
  /** Failed attempts so far. */
  failures: Type.Integer({ minimum: 0 }),
  /** How often the worker takes one (ms); 0: not scheduled. */
  intervalMs: Type.Integer({ minimum: 0 }),
});
