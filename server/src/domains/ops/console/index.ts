/**
 * Operator calls, for a signed-in operator (the session cookie of POST /api/ops/session) or an area
 * team's release credential (Bearer): the releases in force with their pins, canaries, rollback
 * targets, lock and client health; rollback, pin, unpin, promote, abort, preview links and CI
 * uploads, running the same release code as the command; the backups' record, the inventory and
 * the audit log. The shared operator token does not open them (it signs preview links).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseCookie, stringifySetCookie } from 'cookie';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { BackupOverview, PaymentRefund, ReleaseVersionHealth } from '@shop/shared-kernel/contract';
import { opsCalls } from '@shop/shared-kernel/schemas';
import { callRoute } from '../../../infra/http/contract-route.ts';
import { bearerToken, isCrossSite } from '../../../infra/auth/auth.ts';
import {
  deploy,
  finishCanary,
  history,
  rollback,
  setPin,
  status,
  type DeployMode,
  ReleaseRefused,
  isArea,
  isPart,
  type PartName,
  type Provenance,
  type ReleaseStorage,
  PREVIEW_TTL_MS,
  previewLink,
  UPLOAD_BODY_LIMIT,
  unpackBuild,
  type ReleaseIntegrity,
  originBook,
  type RegistryBook,
  verifyMoveRequest,
  assertNotFloored,
} from '@shop/release';
import type { ReleaseActor, ReleaseIdentities } from '../../releases/identities.repository.ts';
import { OPERATOR_SESSION_MS, type OperatorAccounts } from '../../releases/operators.repository.ts';
import { scriptInventory } from '../../releases/script-inventory.ts';
import type { ReleaseKeys } from '../../releases/release-keys.repository.ts';
import { verifyUpload } from '../../releases/signed-upload.ts';
import type { IntegrityFindings } from '../../releases/integrity-findings.repository.ts';
import { integrityPolicyFrom } from '../../releases/integrity-watch.ts';
import type { PagePolicyOptions } from '../../../web/page-policy.ts';
import { cspViolationRoutes, type CspViolationsReader } from './csp-violations.ts';
import { vitalsRoutes, type VitalsReader } from './vitals.ts';
import { renderFailureRoutes, type RenderFailuresReader } from './render-failures.ts';
import { clientErrorRoutes, type ClientErrorsReader } from './client-errors.ts';

export type OpsOptions = {
  /** Where releases live (the server's one storage: the origin directory or an object store). */
  storage: ReleaseStorage;
  /** The registry in force (the server's database, domains/releases/registry.repository.ts); default: the origin's files (tests). */
  book?: RegistryBook;
  /** Marks a version never to be served again, or lifts the mark (an operator's audited override); absent: the route answers 404. */
  setFloor?: (change: { part: PartName; version: string; floored: boolean; by: string; reason: string | null }) => Promise<void>;
  /** Only the key of preview links here: it no longer opens /api/ops. */
  operatorToken: string;
  /** Base of preview links; its origin is the only one a signed-in operator's changes may come from, and https makes the cookie Secure. */
  publicUrl: string;
  /** Page views and client errors per area and version since a time (the last hour is shown). */
  health?: (since: Date) => Promise<ReleaseVersionHealth[]>;
  /** The last backup and the last failed one, from the database (GET /api/ops/backups answers only with it). */
  backups?: () => Promise<BackupOverview>;
  /** What the inventory of the pages' scripts needs beside the registry: the Tag Manager container and the pages' policy settings. */
  inventory?: { tagManagerId: string | null; policy: PagePolicyOptions };
  /** The area teams' release credentials and the audit log (domains/releases/identities.repository.ts). */
  identities: ReleaseIdentities;
  /** The operator accounts and their sessions (domains/releases/operators.repository.ts). */
  operators: OperatorAccounts;
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
};

declare module 'fastify' {
  interface FastifyRequest {
    /** Who acts on /api/ops: the signed-in operator or the team whose release credential was presented. */
    releaseActor?: ReleaseActor;
  }
}

const route = <K extends keyof typeof opsCalls>(name: K) => callRoute(opsCalls, name);

/** The operator's session cookie: HttpOnly, SameSite=Strict, sent only to /api/ops. */
export const OPS_SESSION_COOKIE = 'shop_ops_session';
const SESSION_URL = '/api/ops/session';
/** Audit entries /ops shows. */
const AUDIT_SHOWN = 100;
/** Integrity findings /ops shows. */
const FINDINGS_SHOWN = 100;
const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function refusal(reply: FastifyReply, error: unknown) {
  if (!(error instanceof ReleaseRefused)) throw error;
  const status =
    error.code === 'unknown_version'
      ? 404
      : error.code === 'signature_required'
        ? 403
        : error.code === 'broken_build' ||
            error.code === 'bad_signature' ||
            error.code === 'missing_module' ||
            error.code === 'incompatible_kernel' ||
            error.code === 'incompatible_react' ||
            error.code === 'over_budget' ||
            error.code === 'route_clash'
          ? 422
          : 409;
  return reply.code(status).send({ error: { code: 'conflict', message: error.message, refusal: error.code } });
}

const unknownPart = (reply: FastifyReply, part: string) =>
  reply.code(404).send({ error: { code: 'not_found', message: `Neznáma časť obchodu: ${part.slice(0, 20)}` } });

/** The session secret of the cookie, if any (a header past any real browser's size is not read). */
function sessionSecret(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  if (!header || header.length > 8192) return undefined;
  return parseCookie(header)[OPS_SESSION_COOKIE] || undefined;
}

export const opsRoutes: FastifyPluginAsync<OpsOptions> = async (plugin, options) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const { storage, operatorToken, identities, operators } = options;
  const book = options.book ?? originBook(storage);
  const publicOrigin = new URL(options.publicUrl).origin;
  const secureCookie = publicOrigin.startsWith('https:');
  const cookie = (value: string, maxAgeSeconds: number) =>
    stringifySetCookie(OPS_SESSION_COOKIE, value, {
      httpOnly: true,
      sameSite: 'strict',
      path: '/api/ops',
      secure: secureCookie,
      maxAge: maxAgeSeconds,
      ...(maxAgeSeconds > 0 ? { expires: new Date(Date.now() + maxAgeSeconds * 1000) } : {}),
    });

  /**
   * CSRF: a change made with the cookie must be JSON (which a form on another site cannot send
   * without a preflight) and come from the shop's own pages (the one rule, infra/auth/auth.ts).
   */
  const crossSite = (request: FastifyRequest) => {
    if (!UNSAFE_METHODS.has(request.method)) return false;
    const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    return type !== 'application/json' || isCrossSite(request, options.publicUrl);
  };
  const refuseCrossSite = (reply: FastifyReply) =>
    reply.code(403).send({ error: { code: 'forbidden', message: 'Zmena z iného pôvodu alebo bez JSON bola odmietnutá.' } });

  app.addHook('onRequest', async (request, reply) => {
    // The sign-in, who-am-I and sign-out routes decide by themselves.
    if (request.routeOptions.url === SESSION_URL) return;
    const given = bearerToken(request);
    if (given) {
      const team = await identities.team(given);
      if (team) {
        request.releaseActor = team;
        return;
      }
      return reply.code(401).send({
        error: { code: 'unauthorized', message: 'Neplatný prístup tímu. Operátor sa prihlasuje na stránke /ops menom a heslom.' },
      });
    }
    const secret = sessionSecret(request);
    const session = secret ? await operators.session(secret) : null;
    if (!session) return reply.code(401).send({ error: { code: 'unauthorized', message: 'Prihláste sa ako operátor.' } });
    if (crossSite(request)) return refuseCrossSite(reply);
    request.releaseActor = { kind: 'operator', name: session.name };
  });

  app.route({
    ...route('POST /api/ops/session'),
    handler: async (request, reply) => {
      if (crossSite(request)) return refuseCrossSite(reply);
      const { name, password } = request.body;
      // A team's release credential is never an operator, as the Bearer token or typed as the password.
      const bearer = bearerToken(request);
      const team = (bearer ? await identities.team(bearer) : null) ?? (await identities.team(password));
      if (team) {
        await identities.audit({
          actor: team.name,
          action: 'sign-in',
          part: null,
          allowed: false,
          detail: 'prístup tímu nie je účet operátora',
        });
        return reply
          .code(403)
          .send({ error: { code: 'forbidden', message: 'Prístup tímu nie je účet operátora: prihláste sa menom a heslom operátora.' } });
      }
      const result = await operators.signIn({ name, password, address: request.ip });
      if (!result.ok && result.reason === 'limited') {
        return reply
          .code(429)
          .send({ error: { code: 'rate_limited', message: 'Príliš veľa neúspešných prihlásení. Skúste to znova o 15 minút.' } });
      }
      if (!result.ok) {
        await identities.audit({ actor: name, action: 'sign-in', part: null, allowed: false, detail: 'nesprávne meno alebo heslo' });
        return reply.code(401).send({ error: { code: 'unauthorized', message: 'Nesprávne meno alebo heslo.' } });
      }
      await identities.audit({ actor: result.session.name, action: 'sign-in', part: null, allowed: true });
      reply.header('set-cookie', cookie(result.secret, OPERATOR_SESSION_MS / 1000)).header('cache-control', 'no-store');
      return { data: result.session };
    },
  });

  app.route({
    ...route('GET /api/ops/session'),
    handler: async (request, reply) => {
      const secret = sessionSecret(request);
      const session = secret ? await operators.session(secret) : null;
      reply.header('cache-control', 'no-store');
      // Nobody signed in (or the session ended) is an answer, not an error: /ops shows its sign-in form.
      return { data: session ?? null };
    },
  });

  app.route({
    ...route('DELETE /api/ops/session'),
    handler: async (request, reply) => {
      const secret = sessionSecret(request);
      if (secret && crossSite(request)) return refuseCrossSite(reply);
      const session = secret ? await operators.session(secret) : null;
      if (secret) await operators.signOut(secret);
      if (session) await identities.audit({ actor: session.name, action: 'sign-out', part: null, allowed: true });
      return reply.code(204).header('set-cookie', cookie('', 0)).send(null);
    },
  });

  /**
   * The operator may act on every part, a team only on its own area (`part` null: the operator's
   * pages, for the operator alone). Every release action is audited, allowed or not; the operator's
   * reading of /ops is not. A refusal answers 403 in the error shape.
   */
  const authorize = async (request: FastifyRequest, reply: FastifyReply, action: string, part: string | null): Promise<boolean> => {
    const actor = request.releaseActor!;
    const allowed = actor.kind === 'operator' || (part !== null && actor.area === part);
    if (action !== 'read' || !allowed) await identities.audit({ actor: actor.name, action, part, allowed });
    if (!allowed) {
      const what = part === null ? 'stránku operátora' : `časť ${part.slice(0, 20)}`;
      await reply.code(403).send({
        error: {
          code: 'forbidden',
          message: `Tento prístup nesmie meniť ${what}: ${actor.kind === 'team' ? `patrí tímu oblasti ${actor.area}` : 'nemá oprávnenie'}.`,
        },
      });
    }
    return allowed;
  };

  /** The operator's pages: readable by a signed-in operator only (a team's refusal is audited). */
  const operatorReads = async (request: FastifyRequest, reply: FastifyReply) => {
    await authorize(request, reply, 'read', null);
  };

  app.route({
    ...route('GET /api/ops/releases'),
    preHandler: operatorReads,
    handler: async () => {
      const since = new Date(Date.now() - 60 * 60_000);
      const [current, moves, health] = await Promise.all([
        status(storage, book),
        history(storage, undefined, book),
        options.health ? options.health(since) : Promise.resolve([]),
      ]);
      return { data: { ...current, history: moves.slice(-200), health } };
    },
  });

  const { backups } = options;
  if (backups) {
    app.route({ ...route('GET /api/ops/backups'), preHandler: operatorReads, handler: async () => ({ data: await backups() }) });
  }
  const { inventory } = options;
  if (inventory) {
    app.route({
      ...route('GET /api/ops/inventory'),
      preHandler: operatorReads,
      handler: async (_request, reply) => {
        reply.header('cache-control', 'no-store');
        return {
          data: await scriptInventory(storage, { ...inventory, integrity: options.integrity ?? null, keys: options.keys ?? null, book }),
        };
      },
    });
  }
  const { refunds } = options;
  if (refunds) {
    app.route({ ...route('GET /api/ops/refunds'), preHandler: operatorReads, handler: async () => ({ data: await refunds() }) });
  }
  const { findings } = options;
  if (findings) {
    app.route({
      ...route('GET /api/ops/integrity'),
      preHandler: operatorReads,
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
  if (options.cspViolations) await app.register(cspViolationRoutes, { read: options.cspViolations, authorize });
  if (options.renderFailures) await app.register(renderFailureRoutes, { read: options.renderFailures, authorize });
  if (options.clientErrors) await app.register(clientErrorRoutes, { read: options.clientErrors, authorize });
  if (options.vitals) {
    const parts = async () => (await status(storage, book)).parts.map(({ part, version, canary }) => ({ part, version, canary }));
    await app.register(vitalsRoutes, { read: options.vitals, parts, authorize });
  }
  app.route({
    ...route('GET /api/ops/audit'),
    preHandler: operatorReads,
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

  /**
   * A team's rollback carries a move request signed with the team's own key (not the shop's, not
   * another team's), for this part and version, recent and never used before; otherwise refused.
   */
  async function requireTeamSignature(
    team: string,
    part: PartName,
    version: string | null,
    signed: { text: string; signature: string } | undefined,
  ): Promise<void> {
    if (!signed) {
      throw new ReleaseRefused(
        'signature_required',
        "A team's rollback must be signed with the team's key (pnpm release rollback … --server, RELEASE_SIGNING_KEY). Nothing was changed.",
      );
    }
    const own = (await options.keys?.trusted())?.filter((key) => key.owner === team) ?? [];
    const request = verifyMoveRequest(signed, own);
    const command = request.command;
    if (command.op !== 'rollback' || command.part !== part || command.to !== version) {
      throw new ReleaseRefused('bad_signature', 'The signed request is not this rollback (part or version differ). Nothing was changed.');
    }
    const fresh = await options.keys!.acceptSignature({
      signature: signed.signature,
      keyId: request.keyId,
      part,
      version: 'request:rollback',
    });
    if (!fresh)
      throw new ReleaseRefused('bad_signature', 'This signed rollback was used before: a replay is refused. Nothing was changed.');
  }

  const { setFloor } = options;
  if (setFloor) {
    app.route({
      ...route('POST /api/ops/releases/:part/floor'),
      handler: async (request, reply) => {
        const who = request.releaseActor!;
        const { part } = request.params;
        // Marking and lifting are the operator's: a team's credential is refused (and audited).
        if (who.kind !== 'operator') {
          await identities.audit({ actor: who.name, action: 'floor', part, allowed: false, detail: 'len operátor' });
          return reply.code(403).send({ error: { code: 'forbidden', message: 'Verziu môže označiť alebo odznačiť len operátor.' } });
        }
        if (!isPart(part)) return unknownPart(reply, part);
        try {
          const { version, floored } = request.body;
          await setFloor({ part, version, floored, by: who.name, reason: request.body.reason?.trim() || null });
          request.log.warn({ release: { action: floored ? 'floor' : 'floor-lift', part, version } }, 'release floor changed from /ops');
          return { data: { part, version, floored } };
        } catch (error) {
          return refusal(reply, error);
        }
      },
    });
  }

  /** History names who moved a part: the team's credential, or the signed-in operator. */
  const actor = (request: FastifyRequest, reason?: string): Provenance => ({
    who: request.releaseActor!.name,
    reason: reason?.trim() || null,
  });
  /** Each release route names its action; refused ones stop here. */
  const releaseAction = (action: string) => async (request: FastifyRequest<{ Params: { part: string } }>, reply: FastifyReply) => {
    await authorize(request, reply, action, request.params.part);
  };

  app.route({
    ...route('POST /api/ops/releases/:part/rollback'),
    preHandler: releaseAction('rollback'),
    handler: async (request, reply) => {
      const { part } = request.params;
      if (!isPart(part)) return unknownPart(reply, part);
      try {
        const who = request.releaseActor!;
        // A team's credential alone may not roll back: the rollback must be signed with the team's own key.
        if (who.kind === 'team') await requireTeamSignature(who.name, part, request.body?.version ?? null, request.body?.signed);
        const result = await rollback({
          storage,
          book,
          part,
          to: request.body?.version ?? null,
          provenance: actor(request, request.body?.reason),
          integrity: options.integrity,
        });
        request.log.warn({ release: { action: 'rollback', ...result } }, 'release rolled back from /ops');
        return { data: result };
      } catch (error) {
        return refusal(reply, error);
      }
    },
  });

  for (const action of ['pin', 'unpin'] as const) {
    app.route({
      ...route(`POST /api/ops/releases/:part/${action}`),
      preHandler: releaseAction(action),
      handler: async (request, reply) => {
        const { part } = request.params;
        if (!isPart(part)) return unknownPart(reply, part);
        try {
          const pin = await setPin({ storage, book, part, pinned: action === 'pin', provenance: actor(request, request.body?.reason) });
          return { data: { pinned: pin !== null } };
        } catch (error) {
          return refusal(reply, error);
        }
      },
    });
  }

  for (const outcome of ['promote', 'abort'] as const) {
    app.route({
      ...route(`POST /api/ops/releases/:part/${outcome}`),
      preHandler: releaseAction(outcome),
      handler: async (request, reply) => {
        const { part } = request.params;
        if (!isArea(part)) return unknownPart(reply, part);
        try {
          const result = await finishCanary({
            storage,
            book,
            area: part,
            outcome,
            provenance: actor(request, request.body?.reason),
            expectVersion: request.body?.version,
            integrity: options.integrity,
          });
          request.log.warn(
            { release: { action: outcome, ...result } },
            `canary ${outcome === 'promote' ? 'promoted' : 'aborted'} from /ops`,
          );
          return { data: result };
        } catch (error) {
          return refusal(reply, error);
        }
      },
    });
  }

  app.route({
    ...route('POST /api/ops/releases/:part/preview'),
    preHandler: releaseAction('preview'),
    handler: async (request, reply) => {
      const { part } = request.params;
      if (!isArea(part)) return unknownPart(reply, part);
      if (!(await storage.exists(`remotes/${part}/${request.body.version}`))) {
        return reply.code(404).send({ error: { code: 'not_found', message: `Verzia ${request.body.version} nie je na serveri.` } });
      }
      try {
        assertNotFloored(await book.floors(part), part, request.body.version);
      } catch (error) {
        return refusal(reply, error);
      }
      return {
        data: {
          url: previewLink(options.publicUrl, operatorToken, { area: part, version: request.body.version }),
          expires: new Date(Date.now() + PREVIEW_TTL_MS).toISOString(),
        },
      };
    },
  });

  // A CI release without file access to the origin: the build comes in the body and runs the same checks.
  app.route({
    ...route('POST /api/ops/releases/:part/upload'),
    bodyLimit: UPLOAD_BODY_LIMIT,
    preHandler: releaseAction('upload'),
    handler: async (request, reply) => {
      const { part } = request.params;
      if (!isPart(part)) return unknownPart(reply, part);
      const body = request.body;
      if (body.mode === 'canary' && !body.share)
        return reply.code(400).send({ error: { code: 'bad_request', message: 'Kanárske vydanie potrebuje podiel (share).' } });
      const mode: DeployMode = body.mode === 'canary' ? { kind: 'canary', share: body.share! } : { kind: body.mode };
      const dir = await mkdtemp(join(tmpdir(), `release-upload-${part}-`));
      try {
        await unpackBuild(body, dir);
        if (!options.keys)
          throw new ReleaseRefused('bad_signature', 'This server accepts no signed uploads (no release keys). Nothing was changed.');
        await verifyUpload({
          keys: options.keys,
          actor: request.releaseActor!,
          part,
          dir,
          packageVersion: body.packageVersion,
          manifest: body.manifest,
        }).catch(async (error: unknown) => {
          if (error instanceof ReleaseRefused)
            await identities.audit({ actor: request.releaseActor!.name, action: 'upload', part, allowed: false, detail: error.message });
          throw error;
        });
        const result = await deploy({
          storage,
          book,
          part: part as PartName,
          distDir: dir,
          packageVersion: body.packageVersion,
          budgetBytes: body.budgetBytes,
          mode,
          overridePin: body.overridePin === true,
          signed: body.manifest,
          // The credential or the operator names who released; what the uploader says of itself is kept beside it.
          provenance: {
            who: `${request.releaseActor!.name} (${body.who}, upload)`,
            reason: body.reason ?? null,
            commit: body.commit ?? null,
            dirty: body.dirty ?? null,
          },
        });
        request.log.warn({ release: { action: `upload ${mode.kind}`, ...result } }, 'release uploaded');
        const previewUrl =
          mode.kind === 'publish' && isArea(part)
            ? previewLink(options.publicUrl, operatorToken, { area: part, version: result.version })
            : null;
        return { data: { result, previewUrl } };
      } catch (error) {
        return refusal(reply, error);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  });
};
