/**
 * The operator console's calls on the operator origin, for a signed-in operator who passed the
 * second factor (operatorAuth, infra/auth/operator-auth.ts): the releases in force with their pins,
 * canaries, rollback targets, lock and client health; the backups' record, the refunds, the
 * integrity watch's findings, the script inventory, the pages' policy violations, the Web Vitals, the
 * server renders that failed in the sandbox and the audit log. The release moves (release-actions.ts) are an operator's or an area team's.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { BackupOverview, PaymentRefund, ReleaseVersionHealth } from '@shop/shared-kernel/contract';
import { opsCalls } from '@shop/shared-kernel/schemas';
import { callRoute } from '../../../infra/http/contract-route.ts';
import { history, originBook, status, type PartName, type RegistryBook, type ReleaseStorage, type ReleaseIntegrity } from '@shop/release';
import type { ReleaseIdentities } from '../../releases/identities.repository.ts';
import { scriptInventory } from '../../releases/script-inventory.ts';
import type { ReleaseKeys } from '../../releases/release-keys.repository.ts';
import type { IntegrityFindings } from '../../releases/integrity-findings.repository.ts';
import { integrityPolicyFrom } from '../../releases/integrity-watch.ts';
import { cspViolationRoutes, type CspViolationsReader } from './csp-violations.ts';
import { vitalsRoutes, type VitalsReader } from './vitals.ts';
import { renderFailureRoutes, type RenderFailuresReader } from './render-failures.ts';
import { releaseActionRoutes } from './release-actions.ts';
import { featureFlagRoutes } from './feature-flags.ts';
import type { Db } from '../../../db/database.ts';
import { clientErrorRoutes, type ClientErrorsReader } from './client-errors.ts';
import type { ReleasePreviews } from '../../releases/previews.repository.ts';

export type OpsOptions = {
  /** Where releases live (the server's one storage: the origin directory or an object store). */
  storage: ReleaseStorage;
  /** The registry in force (the server's database, domains/releases/registry.repository.ts); default: the origin's files (tests). */
  book?: RegistryBook;
  /** Marks a version never to be served again, or lifts the mark (an operator's audited override); absent: the route answers 404. */
  setFloor?: (change: { part: PartName; version: string; floored: boolean; by: string; reason: string | null }) => Promise<void>;
  /** The preview links the server keeps. */
  previews: ReleasePreviews;
  /** Base of preview links (the shop's public address). */
  publicUrl: string;
  /** A staged canary's stage time when an upload names none (CANARY_STAGE_MS). */
  canaryStageMs?: number;
  /** What the canary watch judges a canary of an area on (Slovak labels), shown with each running canary. */
  canaryJudged?: (area: string) => readonly string[];
  /** Page views and client errors per area and version since a time (the last hour is shown). */
  health?: (since: Date) => Promise<ReleaseVersionHealth[]>;
  /** The last backup and the last failed one, from the database (GET /api/ops/backups answers only with it). */
  backups?: () => Promise<BackupOverview>;
  /** What the inventory of the pages' scripts needs beside the registry: the Tag Manager container and the policy of a shell version's pages. */
  inventory?: { tagManagerId: string | null; shellPolicy: (indexHtml: string) => string };
  /** The audit log (domains/releases/identities.repository.ts). */
  identities: ReleaseIdentities;
  /** The keys whose signed manifests an upload may carry; without them every upload is refused. */
  keys?: ReleaseKeys;
  /** Checks a version's files against its signed manifest before a rollback or a promotion puts it in force. */
  integrity?: ReleaseIntegrity;
  /** What the integrity watch found, and when it last checked (GET /api/ops/integrity). */
  findings?: IntegrityFindings;
  /** Card payments the shop refunds (GET /api/ops/refunds). */
  refunds?: () => Promise<PaymentRefund[]>;
  /** The pages' policy violations of the last days (GET /api/ops/csp-violations answers only with it). */
  cspViolations?: CspViolationsReader;
  /** The shoppers' Web Vitals per area version (GET /api/ops/vitals answers only with it). */
  vitals?: VitalsReader;
  /** Server renders that failed in the sandbox (GET /api/ops/render-failures answers only with it). */
  renderFailures?: RenderFailuresReader;
  /** Client errors grouped by area, version, route and mapped top frame (GET /api/ops/client-errors answers only with it). */
  clientErrors?: ClientErrorsReader;
  /** The database of the feature switches (the shop's). */
  flagsDb: Db;
};

const route = <K extends keyof typeof opsCalls>(name: K) => callRoute(opsCalls, name);
/** Audit entries the console shows. */
const AUDIT_SHOWN = 100;
/** Integrity findings the console shows. */
const FINDINGS_SHOWN = 100;
const OPERATOR = { access: 'operator' } as const;

export const opsRoutes: FastifyPluginAsync<OpsOptions> = async (plugin, options) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const { storage, identities } = options;
  const book = options.book ?? originBook(storage);

  app.route({
    ...route('GET /api/ops/releases'),
    config: OPERATOR,
    handler: async () => {
      const since = new Date(Date.now() - 60 * 60_000);
      const [current, moves, health] = await Promise.all([
        status(storage, book),
        history(storage, undefined, book),
        options.health ? options.health(since) : Promise.resolve([]),
      ]);
      const { canaryJudged } = options;
      const parts = current.parts.map((part) =>
        part.canary && canaryJudged ? { ...part, canary: { ...part.canary, judged: [...canaryJudged(part.part)] } } : part,
      );
      return { data: { ...current, parts, history: moves.slice(-200), health } };
    },
  });

  const { backups } = options;
  if (backups) app.route({ ...route('GET /api/ops/backups'), config: OPERATOR, handler: async () => ({ data: await backups() }) });
  const { inventory } = options;
  if (inventory) {
    app.route({
      ...route('GET /api/ops/inventory'),
      config: OPERATOR,
      handler: async (_request, reply) => {
        reply.header('cache-control', 'no-store');
        return {
          data: await scriptInventory(storage, {
            ...inventory,
            integrity: options.integrity ?? null,
            keys: options.keys ?? null,
            book,
            // A local override's scripts are on the developer's machine, not the origin: the Náhľady list shows it.
            previewed: async () => (await options.previews.lasting()).filter((preview) => preview.local === null),
          }),
        };
      },
    });
  }
  const { refunds } = options;
  if (refunds) app.route({ ...route('GET /api/ops/refunds'), config: OPERATOR, handler: async () => ({ data: await refunds() }) });
  const { findings } = options;
  if (findings) {
    app.route({
      ...route('GET /api/ops/integrity'),
      config: OPERATOR,
      handler: async (_request, reply) => {
        reply.header('cache-control', 'no-store');
        const policy = integrityPolicyFrom(process.env);
        const [rows, last] = await Promise.all([findings.recent(FINDINGS_SHOWN), findings.lastCheck()]);
        return {
          data: {
            lastCheck: last?.at ?? null,
            lastCheckedRevision: last?.revision ?? null,
            intervalMs: policy.intervalMs,
            action: policy.action,
            findings: rows.map((row) => ({
              part: row.part,
              version: row.version,
              subject: row.subject,
              kind: row.kind,
              expected: row.expected,
              actual: row.actual,
              firstSeen: row.first_seen,
              lastSeen: row.last_seen,
              action: row.action,
              detail: row.detail,
            })),
          },
        };
      },
    });
  }
  if (options.cspViolations) await app.register(cspViolationRoutes, { read: options.cspViolations });
  if (options.renderFailures) await app.register(renderFailureRoutes, { read: options.renderFailures });
  if (options.clientErrors) await app.register(clientErrorRoutes, { read: options.clientErrors });
  if (options.vitals) {
    const parts = async () => (await status(storage, book)).parts.map(({ part, version, canary }) => ({ part, version, canary }));
    await app.register(vitalsRoutes, { read: options.vitals, parts });
  }
  app.route({
    ...route('GET /api/ops/audit'),
    config: OPERATOR,
    handler: async () => ({
      data: (await identities.recent(AUDIT_SHOWN)).map((row) => ({
        at: row.at,
        actor: row.actor,
        action: row.action,
        part: row.part,
        allowed: row.allowed === 1,
        detail: row.detail,
      })),
    }),
  });

  await app.register(featureFlagRoutes, { db: options.flagsDb });
  await app.register(releaseActionRoutes, {
    storage,
    book,
    ...(options.setFloor ? { setFloor: options.setFloor } : {}),
    publicUrl: options.publicUrl,
    previews: options.previews,
    ...(options.keys ? { keys: options.keys } : {}),
    ...(options.integrity ? { integrity: options.integrity } : {}),
    ...(options.canaryStageMs ? { canaryStageMs: options.canaryStageMs } : {}),
  });
};
