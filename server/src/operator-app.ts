/**
 * The operator origin: a server of its own (OPS_PORT locally, OPS_URL in production, an nginx server
 * block in the cluster) that answers the operator console and every operator call, and nothing of
 * the shop: no page of the shell, no area's code, no shopper's call. The shop's origin answers 404
 * for all of it, so no script on a shop page (an area's, an injected one) can reach an operator's
 * session: the cookie (`__Host-shop_ops`, SameSite=Strict) belongs to this origin, and a change
 * must name this origin in `Origin` (infra/auth/operator-auth.ts).
 *
 * It shares the shop's process, database, metrics and outbox (the shop's `deps`); every /api route
 * here says what it needs of who acts (`config.access`), or the server refuses to start.
 */
import type { FastifyInstance } from 'fastify';
import { baseServer, type ServerBase } from './app.ts';
import { operatorAuth } from './infra/auth/operator-auth.ts';
import { observeRequests } from './infra/observability/observability.ts';
import { operatorSessionRoutes } from './domains/operators/index.ts';
import { operatorAccounts, OPERATOR_REAUTH_MS, type OperatorAccounts } from './domains/operators/operator-accounts.repository.ts';
import { opsRoutes, type OpsOptions } from './domains/ops/console/index.ts';
import { operatorRoutes } from './domains/ordering/operator/index.ts';
import { redirectOperatorRoutes } from './domains/catalog/redirect/operator.ts';
import { telemetrySummaryRoutes } from './domains/ops/telemetry/summary.ts';
import { releaseIdentities } from './domains/releases/identities.repository.ts';
import { operatorConsole } from './web/operator-console.ts';
import { shellPagePolicy, type PagePolicyOptions } from './web/page-policy.ts';

export type OperatorApiOptions = ServerBase & {
  /** The operator origin's public address (OPS_URL): its cookie, its CSRF rule. */
  operatorUrl: string;
  /** The release views and moves of the console (storage, health, backups, inventory, …); the audit log is the shop's. */
  console: Omit<OpsOptions, 'identities' | 'inventory' | 'flagsDb'> & {
    /** The script inventory's settings: the Tag Manager container and the pages' policy settings (the page host's). */
    inventory?: { tagManagerId: string | null; policy: PagePolicyOptions };
  };
  /** The operator accounts (default: the shop database's, with the default idle timeout). */
  operators?: OperatorAccounts;
  /** How long a typed code counts for a release action (default OPERATOR_REAUTH_MS). */
  reauthMs?: number;
  /** The clock of the re-authentication's freshness (tests). */
  now?: () => Date;
  /** The console's built files (default server/console/dist). */
  consoleDir?: string;
};

/** The inventory's view of the pages' policy: the page host's rule (web/page-policy.ts), so the ops domain needs nothing of web/. */
function inventoryOf(settings: OperatorApiOptions['console']['inventory']): OpsOptions['inventory'] {
  if (!settings) return undefined;
  const { tagManagerId, policy } = settings;
  return { tagManagerId, shellPolicy: (indexHtml) => shellPagePolicy(indexHtml, policy) };
}

/** Routes of this origin that need no `access`: the console's own files. */
const FILES = /^\/(ops(\/\*)?|favicon\.ico)?$/;

/** The operator origin's server, built beside the shop's `shop` (buildApi) and sharing its dependencies. */
export function buildOperatorApi(shop: FastifyInstance, options: OperatorApiOptions): FastifyInstance {
  const operatorOrigin = new URL(options.operatorUrl).origin;
  const app = baseServer({ ...options, hsts: operatorOrigin.startsWith('https:') });
  const deps = shop.deps;
  const identities = releaseIdentities(deps.db);
  const operators = options.operators ?? operatorAccounts(deps.db);
  observeRequests(app, deps.metrics);
  // An operator route that forgot to say who may call it must not answer anyone.
  app.addHook('onRoute', (route) => {
    if (route.config?.access === undefined && !FILES.test(route.url))
      throw new Error(`operator origin: ${String(route.method)} ${route.url} has no config.access (infra/auth/operator-auth.ts)`);
  });
  app.register(operatorAuth, {
    operatorOrigin,
    session: (secret) => operators.session(secret),
    bearer: async (token) => identities.team(token).then((team) => (team?.kind === 'team' ? team : null)),
    audit: (entry) => identities.audit(entry),
    reauthMs: options.reauthMs ?? OPERATOR_REAUTH_MS,
    ...(options.now ? { now: options.now } : {}),
  });
  // Nothing an operator is shown is kept by a cache; a change queues its side effects for the shop's outbox.
  app.addHook('onSend', async (_request, reply, payload) => {
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    return payload;
  });
  app.addHook('onResponse', async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') shop.outbox.kick();
  });
  operatorConsole(app, options.consoleDir ? { dir: options.consoleDir } : {});
  app.register(
    async (api) => {
      await api.register(operatorSessionRoutes, { operators, identities, operatorOrigin });
      await api.register(opsRoutes, {
        ...options.console,
        identities,
        flagsDb: deps.db,
        inventory: inventoryOf(options.console.inventory),
      });
      await api.register(operatorRoutes, deps);
      await api.register(redirectOperatorRoutes, deps);
      await api.register(telemetrySummaryRoutes, deps);
    },
    { prefix: '/api' },
  );
  return app;
}
