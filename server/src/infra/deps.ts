import type { Db, DialectName } from '../db/database.ts';
import type { TokenService } from './auth/auth.ts';
import type { CheckoutOptions } from './checkout-options.ts';
import type { FileStore } from './storage/file-store.ts';
import type { Metrics } from './observability/metrics.ts';
import type { RateLimits } from './cache/rate-limit.ts';
import type { SharedState } from './cache/shared-state.ts';

/** The versions of each part (shell, areas) a browser may be running: in force or in a canary. */
export type ReleasedVersions = ReadonlyMap<string, ReadonlySet<string>>;

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
  /** The shop's settings: card gateway, e-mail, public URL, bank account, data folders. */
  checkout: CheckoutOptions;
  /** Prometheus counters (also `app.metrics`). */
  metrics: Metrics;
  limits: RateLimits;
  /** Redis, shared by every server (infra/cache/shared-state.ts): rate-limit counters live there; null: in this process. */
  shared: SharedState | null;
  /** What /api/ready checks besides the database. */
  readiness: ReadinessCheck[];
  /** Load the catalogue's listing index in the background once ready (BuildApiOptions.warmCatalogue). */
  warmCatalogue: boolean;
  /** Complaint photos (`complaints/<name>`) and invoice copies (`invoices/<name>`): a local directory or an S3 bucket (infra/storage/file-store.ts). */
  files: FileStore;
  /** A browser reported that an area's version failed to load (the integrity watch checks its files). */
  onClientLoadFailure: (area: string, version: string | null) => void;
  /**
   * Client telemetry: the part versions reports are kept for (others are dropped and counted), and
   * the key telemetry sessions are signed with (domains/ops/telemetry/telemetry-session.ts).
   */
  telemetry: { releasedVersions: () => Promise<ReleasedVersions>; sessionKey: Buffer };
};
