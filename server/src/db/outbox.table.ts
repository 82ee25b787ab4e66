import type { Generated, Selectable } from 'kysely';

/**
 * Side effects that must happen (e-mails, refunds, payment cancellations), written in the same
 * transaction as their cause and carried out by the outbox worker (infra/outbox/outbox.ts).
 */
export interface OutboxTable {
  job_id: Generated<number>;
  /** What the job does: a handler registered under this name runs it. */
  topic: string;
  /** Unique per cause (e.g. `order-confirmation:42`), so a cause never queues its job twice. */
  job_key: string;
  /** JSON. */
  payload: string;
  /** pending | done | dead (gave up after the last attempt). */
  status: Generated<string>;
  attempts: Generated<number>;
  /** Not before this time (ISO, UTC): the back-off after a failure. */
  run_after: string;
  /** A worker holds the job until then; after it, another worker may take it again. */
  locked_until: string | null;
  last_error: string | null;
  created_at: string;
  done_at: string | null;
}

export type OutboxRow = Selectable<OutboxTable>;

/** A change of the sign-in e-mail, waiting for the link sent to the new address. */
export interface EmailChangeTable {
  token_hash: string;
  user_id: number;
  new_email: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}
