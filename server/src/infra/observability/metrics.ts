/**
 * The API's metrics in Prometheus text format (prom-client), one registry per API instance:
 * requests by route and status with latency histograms, orders, payments, refunds, the outbox's
 * backlog and failures, response-cache hits, client errors, page views and Web Vitals the browsers report, the
 * backups' record, and Node's own process metrics.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

export type Metrics = ReturnType<typeof createMetrics>;

/** What the metrics show of the backups (backup/status.repository.ts reads it from the database). */
export type BackupRecord = {
  lastSuccess: { finishedAt: string; durationMs: number; bytes: number | null } | null;
  lastFailure: { finishedAt: string } | null;
  failures: number;
};

/** Integrity findings per part and kind, and the last finished check (domains/releases/integrity-findings.repository.ts reads them from the database). */
export type IntegrityRecord = { counts: { part: string; kind: string; count: number }[]; lastCheck: string | null };

/** Refunds waiting for the gateway (domains/ordering/order-core/payment.repository.ts reads them from the database). */
export type RefundsRecord = { pending: number; oldestPendingSince: string | null };

/** Rows of the day's CSP violation store per bucket and the limit (domains/ops/telemetry/csp-violations.repository.ts). */
export type CspRowsRecord = { rows: Record<string, number>; limit: number };

/** The canaries from the release registry and its history (domains/releases/canary-jobs.ts reads them from the registry in force). */
export type CanaryRecord = {
  /** Every area in the registry: each gets its abort counts at zero, so that a first abort is an increase. */
  areas: string[];
  running: { area: string; share: number }[];
  aborts: { area: string; who: string; reason: string | null }[];
  /** Stage moves of staged canaries (the watch's `advance` moves in the history), by area. */
  advances: { area: string }[];
};

/** Field Web Vitals in seconds (LCP, INP, FCP, TTFB): the Core Web Vitals thresholds are bucket bounds. */
export const WEB_VITALS_SECONDS_BUCKETS = [0.05, 0.1, 0.2, 0.3, 0.5, 0.8, 1, 1.8, 2.5, 3, 4, 6, 10];
/** Cumulative Layout Shift (unitless): 0.1 good, 0.25 poor. */
export const WEB_VITALS_CLS_BUCKETS = [0.01, 0.05, 0.1, 0.15, 0.25, 0.5, 1];

/** Versions of one part the render-failure metric keeps series for (bounded labels: releases never stop coming). */
export const RENDER_FAILURE_VERSIONS = 10;

export function createMetrics(
  backlog: () => Promise<{ pending: number; dead: number }>,
  backups?: () => Promise<BackupRecord>,
  integrity?: () => Promise<IntegrityRecord>,
  refunds?: () => Promise<RefundsRecord>,
  cspRows?: () => Promise<CspRowsRecord>,
) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'shop_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'shop_http_request_duration_seconds',
    help: 'Time to answer a request, by method and route pattern.',
    labelNames: ['method', 'route'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const serverErrors = new Counter({
    name: 'shop_http_server_errors_total',
    help: 'Answers with status 5xx (each is logged with its request id and cause).',
    labelNames: ['route'] as const,
    registers: [registry],
  });
  const cache = new Counter({
    name: 'shop_response_cache_total',
    help: 'Public catalog answers by cache result (HIT, MISS, BYPASS).',
    labelNames: ['result'] as const,
    registers: [registry],
  });
  const orders = new Counter({
    name: 'shop_orders_placed_total',
    help: 'Orders placed (replays not counted).',
    labelNames: ['payment'] as const,
    registers: [registry],
  });
  const payments = new Counter({
    name: 'shop_payment_notifications_total',
    help: 'Card gateway notifications by outcome (applied, duplicate, ignored, refund, rejected).',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const outbox = new Counter({
    name: 'shop_outbox_jobs_total',
    help: 'Outbox jobs carried out (done), failed and retried (retry), or given up (dead), by topic.',
    labelNames: ['topic', 'outcome'] as const,
    registers: [registry],
  });
  // Reported by the shoppers' browsers (POST /api/telemetry). No version label: versions come and go, the
  // per-version numbers are in the client_metrics table (GET /api/telemetry/summary).
  const clientErrors = new Counter({
    name: 'shop_client_errors_total',
    help: "Errors reported by shoppers' browsers, by area and kind (load-failed, boundary, uncaught, rejection).",
    labelNames: ['area', 'kind'] as const,
    registers: [registry],
  });
  const clientStackFrames = new Counter({
    name: 'shop_client_stack_frames_total',
    help: "Frames of client errors' stacks, by outcome: mapped (with the version's signed source map), not_released (no released file of a version in force or in a canary), no_map, mismatch (the map differs from its signed manifest), unreadable, no_position.",
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  // Loads that succeeded only after a failed attempt (a retry, or the shop's own origin for a failing asset origin): not errors.
  const clientLoadsRecovered = new Counter({
    name: 'shop_client_loads_recovered_total',
    help: "Area loads in shoppers' browsers that succeeded after a failed attempt (retried, or from the shop's own origin), by area and where it came from (asset, shop).",
    labelNames: ['area', 'from'] as const,
    registers: [registry],
  });
  const clientPageViews = new Counter({
    name: 'shop_client_page_views_total',
    help: "Page views reported by shoppers' browsers (sampled), by area.",
    labelNames: ['area'] as const,
    registers: [registry],
  });
  const clientTelemetryDropped = new Counter({
    name: 'shop_client_telemetry_dropped_total',
    help: 'Telemetry not kept, by reason: cross_site (a request not from the shop’s own pages, refused), no_session (its address had its share of new sessions), unreleased (an event about a version neither in force nor in a canary).',
    labelNames: ['reason'] as const,
    registers: [registry],
  });
  new Gauge({
    name: 'shop_outbox_backlog',
    help: 'Outbox jobs not done yet (pending) and given up (dead).',
    labelNames: ['status'] as const,
    registers: [registry],
    async collect() {
      const counts = await backlog().catch(() => null);
      if (!counts) return;
      this.set({ status: 'pending' }, counts.pending);
      this.set({ status: 'dead' }, counts.dead);
    },
  });
  if (backups) backupMetrics(registry, backups);
  if (refunds) refundMetrics(registry, refunds);
  // Reported by the shoppers' browsers (POST /api/telemetry, sampled): distributions per area (p75 by
  // histogram_quantile), no version label; per version and route they are in client_vitals (GET /api/ops/vitals).
  const webVitals = new Histogram({
    name: 'shop_web_vitals_seconds',
    help: "Field Web Vitals from shoppers' browsers in seconds, by metric (lcp, inp, fcp, ttfb) and area.",
    labelNames: ['metric', 'area'] as const,
    buckets: WEB_VITALS_SECONDS_BUCKETS,
    registers: [registry],
  });
  const webVitalsCls = new Histogram({
    name: 'shop_web_vitals_cls',
    help: "Field Cumulative Layout Shift from shoppers' browsers, by area.",
    labelNames: ['area'] as const,
    buckets: WEB_VITALS_CLS_BUCKETS,
    registers: [registry],
  });
  const serverRenders = new Counter({
    name: 'shop_server_renders_total',
    help: 'Pages the server rendered (rendered, not_found), served from its page cache (cached), confirmed to a cache by their ETag without a render (revalidated, 304) or left to the browser (browser: not a server-rendered page; fallback: the render failed), by page kind (home, category, product, cart, checkout, account, content, other).',
    labelNames: ['outcome', 'page'] as const,
    registers: [registry],
  });
  const renderFailureCounter = new Counter({
    name: 'shop_server_render_failures_total',
    help: 'Server renders that failed in the sandbox, by part, version and reason (error: the part threw; timeout, memory: past its limit; hang: its renderer did not answer; crash: it ended). The page was rendered in the browser.',
    labelNames: ['part', 'version', 'reason'] as const,
    registers: [registry],
  });
  /** Versions counted per part, oldest first: only the newest RENDER_FAILURE_VERSIONS keep their series. */
  const failingVersions = new Map<string, string[]>();
  const renderFailure = (part: string, version: string, reason: string) => {
    const versions = failingVersions.get(part) ?? [];
    if (!versions.includes(version)) {
      versions.push(version);
      while (versions.length > RENDER_FAILURE_VERSIONS) renderFailureCounter.remove({ part, version: versions.shift()! });
      failingVersions.set(part, versions);
    }
    renderFailureCounter.inc({ part, version, reason });
  };
  // Every violation reported is counted here, before any bound of what the database keeps.
  const cspViolations = new Counter({
    name: 'shop_csp_violations_total',
    help: 'Content-Security-Policy violations browsers reported, by directive, page type (home, category, product, cart, checkout, account, content, other), part (shell, an area, inline, external, other) and source (shop, inline, eval, data, blob, trusted-types, tag-manager, external, other)',
    labelNames: ['directive', 'page', 'part', 'source'] as const,
    registers: [registry],
  });
  const cspViolationsUnstored = new Counter({
    name: 'shop_csp_violations_unstored_total',
    help: "Violations stored only in their bucket's other row because the reporting client had added its day's share of distinct rows, by bucket (checkout, rest) and reason (client_budget)",
    labelNames: ['bucket', 'reason'] as const,
    registers: [registry],
  });
  if (cspRows) cspRowMetrics(registry, cspRows);
  const integrityChecks = new Counter({
    name: 'shop_release_integrity_checks_total',
    help: 'Checks of the released files against their signed manifests by this process (intact, tampered: a difference found, failed: the check could not run).',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const releaseRequests = new Counter({
    name: 'shop_release_registry_events_total',
    help: "The registry's trust chain in this process: move requests applied or refused, and exports of the registry on the origin found written by someone else (export-forged).",
    labelNames: ['kind'] as const,
    registers: [registry],
  });
  const previews = new Counter({
    name: 'shop_release_previews_total',
    help: 'Preview links opened in a browser, opened again by it (opened-local, reopened-local: local overrides), refused (invalid: unknown, expired or revoked; opened-elsewhere: another browser holds it; floored) and ended by their browser.',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const releaseContained = new Counter({
    name: 'shop_release_contained_total',
    help: 'Parts the integrity watch contained because no earlier version was in good standing to fall back to: an operator must act.',
    labelNames: ['part'] as const,
    registers: [registry],
  });
  if (integrity) {
    // One read per scrape, shared by both (a scrape collects them at once).
    let pending: Promise<IntegrityRecord | null> | null = null;
    const record = () => {
      pending ??= integrity()
        .catch(() => null)
        .finally(() => {
          pending = null;
        });
      return pending;
    };
    new Counter({
      name: 'shop_release_integrity_findings_total',
      help: 'Released files (or a manifest, or the checkout page headers) found different from what was signed, by part and kind, from the database: every server reports the same.',
      labelNames: ['part', 'kind'] as const,
      registers: [registry],
      async collect() {
        const current = await record();
        if (!current) return;
        this.reset();
        for (const { part, kind, count } of current.counts) this.inc({ part, kind }, count);
      },
    });
    new Gauge({
      name: 'shop_release_integrity_last_check_timestamp_seconds',
      help: 'When the integrity watch last finished a check (Unix time; 0: none yet): alert when it falls behind its interval.',
      registers: [registry],
      async collect() {
        const current = await record();
        this.set(current?.lastCheck ? Date.parse(current.lastCheck) / 1000 : 0);
      },
    });
  }
  return {
    registry,
    requests,
    duration,
    serverErrors,
    cache,
    orders,
    payments,
    outbox,
    clientErrors,
    clientLoadsRecovered,
    clientPageViews,
    clientTelemetryDropped,
    clientStackFrames,
    webVitals,
    webVitalsCls,
    serverRenders,
    renderFailure,
    cspViolations,
    cspViolationsUnstored,
    integrityChecks,
    releaseRequests,
    releaseContained,
    previews,
  };
}

/**
 * The rows the day's CSP violation store keeps per bucket and how many it may: a full bucket counts
 * new hosts only in its other row (ShopCspViolationStoreFull).
 */
function cspRowMetrics(registry: Registry, read: () => Promise<CspRowsRecord>): void {
  const rows = oncePerScrape(read);
  new Gauge({
    name: 'shop_csp_violation_rows',
    help: "Rows the day's store of CSP violations keeps, by bucket (checkout: the basket, checkout and payment pages; rest)",
    labelNames: ['bucket'] as const,
    registers: [registry],
    async collect() {
      const record = await rows();
      for (const [bucket, count] of Object.entries(record?.rows ?? {})) this.set({ bucket }, count);
    },
  });
  new Gauge({
    name: 'shop_csp_violation_rows_limit',
    help: "Rows a day's store of CSP violations keeps at most per bucket; past it new keys are counted in the bucket's other row",
    labelNames: ['bucket'] as const,
    registers: [registry],
    async collect() {
      const record = await rows();
      for (const bucket of Object.keys(record?.rows ?? {})) this.set({ bucket }, record!.limit);
    },
  });
}

/** A read shared by every metric of one scrape (a scrape collects them all at once). */
function oncePerScrape<T>(read: () => Promise<T>): () => Promise<T | null> {
  let pending: Promise<T | null> | null = null;
  return () => {
    pending ??= read()
      .catch(() => null)
      .finally(() => {
        pending = null;
      });
    return pending;
  };
}

/** Refunds still pending, from the database at each scrape: alert when the oldest waits longer than a day. */
function refundMetrics(registry: Registry, read: () => Promise<RefundsRecord>) {
  const record = oncePerScrape(read);
  new Gauge({
    name: 'shop_refunds_pending',
    help: 'Refunds queued for the card gateway and not done yet.',
    registers: [registry],
    async collect() {
      const current = await record();
      if (current) this.set(current.pending);
    },
  });
  new Gauge({
    name: 'shop_refunds_pending_oldest_age_seconds',
    help: 'How long the oldest pending refund has waited (0: none pending).',
    registers: [registry],
    async collect() {
      const current = await record();
      if (!current) return;
      const since = current.oldestPendingSince ? Date.parse(current.oldestPendingSince) : NaN;
      this.set(Number.isFinite(since) ? Math.max(0, (Date.now() - since) / 1000) : 0);
    },
  });
}

export const CANARY_ABORT_REASONS = ['error-rate', 'inp', 'lcp', 'commerce', 'operator'] as const;

/**
 * Why a canary was aborted, as a label: the watchdog's measure (error-rate, inp, lcp; commerce: a
 * judge beyond errors and speed, whose reason the watch writes as „automatické zrušenie (<measure>):“,
 * today the commerce guardrails) or an operator.
 */
export function canaryAbortReason(abort: { who: string; reason: string | null }): (typeof CANARY_ABORT_REASONS)[number] {
  if (abort.who !== 'canary-watch') return 'operator';
  const reason = abort.reason ?? '';
  if (reason.startsWith('automatické zrušenie (')) return 'commerce';
  // An abort for errors names its top error group, whose message may say anything (INP or LCP too).
  if (reason.startsWith('automatic abort: client error rate')) return 'error-rate';
  if (/\bINP\b/i.test(reason)) return 'inp';
  if (/\bLCP\b/i.test(reason)) return 'lcp';
  return 'error-rate';
}

/**
 * The canaries, from the release registry and its history at each scrape (every server reports the
 * same whichever process aborted): the running ones' share, the aborts by area and reason, and the
 * stage advances by area.
 */
export function canaryMetrics(registry: Registry, read: () => Promise<CanaryRecord>) {
  const record = oncePerScrape(read);
  new Gauge({
    name: 'shop_canary_share_percent',
    help: 'The share of visitors (percent) of the canary running for an area; absent when none runs.',
    labelNames: ['area'] as const,
    registers: [registry],
    async collect() {
      const current = await record();
      if (!current) return;
      this.reset();
      for (const { area, share } of current.running) this.set({ area }, share);
    },
  });
  new Counter({
    name: 'shop_canary_aborts_total',
    help: 'Canaries aborted, by area and reason (error-rate, inp, lcp, commerce: the watchdog; operator), from the release history.',
    labelNames: ['area', 'reason'] as const,
    registers: [registry],
    async collect() {
      const current = await record();
      if (!current) return;
      this.reset();
      for (const area of current.areas) for (const reason of CANARY_ABORT_REASONS) this.inc({ area, reason }, 0);
      for (const abort of current.aborts) this.inc({ area: abort.area, reason: canaryAbortReason(abort) });
    },
  });
  new Counter({
    name: 'shop_canary_stage_advances_total',
    help: 'Staged canaries moved on to their next share by the canary watch, by area, from the release history.',
    labelNames: ['area'] as const,
    registers: [registry],
    async collect() {
      const current = await record();
      if (!current) return;
      this.reset();
      for (const area of current.areas) this.inc({ area }, 0);
      for (const advance of current.advances) this.inc({ area: advance.area });
    },
  });
}

/**
 * The backups, from the database at each scrape, so every server reports the same whichever worker
 * took them: alert when the last success is older than the interval allows, or failures grow.
 */
function backupMetrics(registry: Registry, read: () => Promise<BackupRecord>) {
  // One read per scrape, shared by the metrics below (a scrape collects them all at once).
  let pending: Promise<BackupRecord | null> | null = null;
  const record = () => {
    pending ??= read()
      .catch(() => null)
      .finally(() => {
        pending = null;
      });
    return pending;
  };
  const seconds = (iso: string) => Date.parse(iso) / 1000;
  const gauges: [name: string, help: string, value: (record: BackupRecord | null) => number][] = [
    [
      'shop_backup_last_success_timestamp_seconds',
      'When the last successful backup finished (Unix time; 0: none yet).',
      (r) => (r?.lastSuccess ? seconds(r.lastSuccess.finishedAt) : 0),
    ],
    [
      'shop_backup_last_duration_seconds',
      'How long the last successful backup took.',
      (r) => (r?.lastSuccess ? r.lastSuccess.durationMs / 1000 : 0),
    ],
    ['shop_backup_last_size_bytes', 'The size of the last successful backup.', (r) => r?.lastSuccess?.bytes ?? 0],
    [
      'shop_backup_last_failure_timestamp_seconds',
      'When the last failed backup attempt ended (Unix time; 0: none).',
      (r) => (r?.lastFailure ? seconds(r.lastFailure.finishedAt) : 0),
    ],
  ];
  for (const [name, help, value] of gauges) {
    new Gauge({
      name,
      help,
      registers: [registry],
      async collect() {
        this.set(value(await record()));
      },
    });
  }
  new Counter({
    name: 'shop_backup_failures_total',
    help: 'Backup attempts that failed (each logged with its cause and retried at the next interval).',
    registers: [registry],
    async collect() {
      const current = await record();
      if (!current) return;
      this.reset();
      this.inc(current.failures);
    },
  });
}
