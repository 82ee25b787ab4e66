import type { Db, DialectName } from '../db/database.ts';
import type { TokenService } from './auth/auth.ts';
import type { CardGateway, MailSettings } from './checkout-options.ts';
import type { Mailer } from './outbox/mailer.ts';
import type { FileStore } from './storage/file-store.ts';
import type { Metrics } from './observability/metrics.ts';
import type { RateLimits } from './cache/rate-limit.ts';
import type { SharedState } from './cache/shared-state.ts';
import type { ClientStackFrame, MappedStackFrame } from '@shop/shared-kernel/contract';

/** The versions of each part (shell, areas) a browser may be running: in force or in a canary. */
export type ReleasedVersions = ReadonlyMap<string, ReadonlySet<string>>;

/** Maps a client error's frames with the version's released source maps (domains/ops/telemetry/stack-mapper.ts). */
export type StackMapper = {
  map(
    report: { area: string; version: string },
    frames: readonly ClientStackFrame[],
    released: ReleasedVersions,
  ): Promise<MappedStackFrame[]>;
};

/** Something /api/ready checks besides the database (e.g. the release registry). */
export type ReadinessCheck = { name: string; label: string; check: () => Promise<unknown> };

/**
 * The one dependency object: app.ts builds it once, infrastructure first, and hands the same
 * object to every domain plugin. A domain takes what it needs from it; nothing is spread per plugin.
 */
export type ApiDeps = {
  db: Db;
  dialect: DialectName;
  /** Sign-in tokens (HS256). */
  tokens: TokenService;
  /**
   * The shop's public origin (PUBLIC_URL): links in e-mails and pages, the gateway's return address,
   * the session cookie's Secure; configuration, never the request's Host.
   */
  publicUrl: string;
  /** The card gateway (orders start payments there; payments and the operator's refunds call it back). */
  gateway: CardGateway;
  /** The shop's e-mail: how it leaves, its sender, and the mailer the outbox's jobs send with. */
  mail: MailSettings & { mailer: Mailer };
  /** The shop's bank account: transfer instructions (PAY by square), invoices, complaints' refunds. */
  iban: string;
  /** Prometheus counters (also `app.metrics`). */
  metrics: Metrics;
  limits: RateLimits;
  /** Redis, shared by every server (infra/cache/shared-state.ts): rate-limit counters live there; null: in this process. */
  shared: SharedState | null;
  /** What /api/ready checks besides the database. */
  readiness: ReadinessCheck[];
  /** Load the catalog's listing index in the background once ready (BuildApiOptions.warmCatalog). */
  warmCatalog: boolean;
  /** Complaint photos (`complaints/<name>`) and invoice copies (`invoices/<name>`): a local directory or an S3 bucket (infra/storage/file-store.ts). */
  files: FileStore;
  /** A browser reported that an area's version failed to load (the integrity watch checks its files). */
  onClientLoadFailure: (area: string, version: string | null) => void;
  /**
   * Client telemetry: the part versions reports are kept for (others are dropped and counted), and
   * the key telemetry sessions are signed with (domains/ops/telemetry/telemetry-session.ts).
   */
  telemetry: {
    releasedVersions: () => Promise<ReleasedVersions>;
    sessionKey: Buffer;
    /** Maps client errors' stacks with the released source maps (domains/ops/telemetry/stack-mapper.ts); null: kept as reported. */
    stacks: StackMapper | null;
  };
};
