/**
 * The registry a browser holding a preview is served: the previewed version of one area in place of
 * the one in force (and of its canary), read from the build on the origin. The revision stays the one
 * in force, so the tab does not take the preview for a new release.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  PREVIEW_COOKIE,
  PREVIEW_PATH,
  localRelease,
  readBuild,
  type Preview,
  type PublicRegistry,
  partPrefix,
  type RegistryBook,
  type ReleaseStorage,
} from '@shop/release';
import { shopCookieName } from '@shop/shared-kernel/rules';
import { readCookie } from '../infra/http/cookies.ts';

/**
 * The preview links the server keeps (domains/releases/previews.repository.ts): a link opens in one
 * browser only, which then holds the preview by its own cookie until it ends, expires or is revoked.
 */
export type PreviewGrants = {
  open(
    linkToken: string,
    browserToken: string | undefined,
  ): Promise<{ preview: Preview; browserToken: string } | 'invalid' | 'opened-elsewhere'>;
  held(browserToken: string): Promise<Preview | null>;
  end(browserToken: string): Promise<void>;
};

type Release = PublicRegistry['areas'][keyof PublicRegistry['areas']] & object;
/** Released builds never change: what one says about itself is read once (a few at most). */
const releases = new Map<string, Promise<Release | null>>();

function releaseOf(storage: ReleaseStorage, preview: Preview): Promise<Release | null> {
  const prefix = partPrefix(preview.area, preview.version);
  const key = `${storage.localPath(prefix)}`;
  let cached = releases.get(key);
  if (!cached) {
    // An object store downloads the folder into its cache first (once: a released folder never changes).
    cached = storage
      .materialize(prefix)
      .then((dir) => readBuild(dir, preview.area))
      .then(
        (build) =>
          build.kind === 'area'
            ? {
                version: preview.version,
                entry: `${prefix}/${build.entry}`,
                kernel: build.kernel,
                exposes: build.exposes,
                routes: build.routes,
              }
            : null,
        () => null,
      );
    if (releases.size >= 20) releases.delete(releases.keys().next().value!);
    releases.set(key, cached);
  }
  return cached;
}

export async function previewedRegistry(
  storage: ReleaseStorage,
  preview: Preview,
  registry: PublicRegistry,
): Promise<{ preview: Preview; registry: PublicRegistry } | null> {
  // A local override: the entry on the developer's machine, as the link recorded it (never on the origin).
  const local = preview.local ? localRelease(preview.area, preview.version, preview.local) : null;
  // Pruned since the link was made: the preview ends quietly.
  if (!local && !(await storage.exists(partPrefix(preview.area, preview.version)))) return null;
  const release = local ?? (await releaseOf(storage, preview));
  if (!release) return null;
  const canaries = { ...registry.canaries };
  delete canaries[preview.area];
  return { preview, registry: { ...registry, areas: { ...registry.areas, [preview.area]: release }, canaries } };
}

export type PreviewHostOptions = {
  storage: ReleaseStorage;
  book: RegistryBook;
  /** The links the server keeps; null: this server opens none (every link is refused). */
  previews: PreviewGrants | null;
  /** The shop is served over https (its public address): the cookie is `__Host-` and Secure. */
  https: boolean;
};

const INVALID = 'Odkaz na náhľad je neplatný, vypršala mu platnosť alebo ho operátor zrušil. Vyžiadajte si nový v konzole operátora.';
const ELSEWHERE = 'Tento odkaz na náhľad už otvoril iný prehliadač a náhľad patrí len jemu. Vyžiadajte si nový odkaz v konzole operátora.';
const FLOORED = 'Táto verzia je označená ako nepoužiteľná a nenahliada do nej nikto. Vyžiadajte si náhľad inej verzie.';

/**
 * The preview links' route (open one, end one's preview) and what a page request is served: the
 * previewed registry while this browser holds a preview that lasts, of a version not marked never to
 * be served again; otherwise null (the registry in force).
 */
export function previewHost(app: FastifyInstance, options: PreviewHostOptions) {
  const { storage, book, previews } = options;
  const cookieName = shopCookieName(PREVIEW_COOKIE, options.https);
  const cookie = (value: string, maxAgeSeconds: number) =>
    `${cookieName}=${value}; Path=/; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax${options.https ? '; Secure' : ''}`;
  const counted = (outcome: string) => app.metrics?.previews.inc({ outcome });
  const floored = async (preview: Preview) => (await book.floors(preview.area)).some((floor) => floor.version === preview.version);

  app.get<{ Querystring: { token?: string; end?: string } }>(
    PREVIEW_PATH,
    {
      schema: {
        querystring: { type: 'object', properties: { token: { type: 'string', maxLength: 100 }, end: { type: 'string', maxLength: 5 } } },
      },
    },
    async (request, reply) => {
      const held = readCookie(request.headers.cookie, cookieName);
      const refuse = (outcome: string, message: string) => {
        counted(outcome);
        request.log.warn({ preview: { outcome } }, 'preview link refused');
        return reply.code(403).header('cache-control', 'no-store').type('text/plain; charset=utf-8').send(message);
      };
      if (request.query.end !== undefined || !request.query.token) {
        if (held && previews) {
          await previews.end(held);
          counted('ended');
        }
        return reply.header('set-cookie', cookie('', 0)).redirect('/', 303);
      }
      const opened = previews ? await previews.open(request.query.token, held) : 'invalid';
      if (opened === 'invalid') return refuse('invalid', INVALID);
      if (opened === 'opened-elsewhere') return refuse('opened-elsewhere', ELSEWHERE);
      if (await floored(opened.preview)) return refuse('floored', FLOORED);
      const local = opened.preview.local;
      counted(`${opened.browserToken === held ? 'reopened' : 'opened'}${local ? '-local' : ''}`);
      request.log.warn(
        { preview: { area: opened.preview.area, version: opened.preview.version, ...(local ? { local: local.origin } : {}) } },
        local ? 'local override opened in a browser' : 'preview opened in a browser',
      );
      const maxAge = Math.max(1, Math.floor((opened.preview.expires - Date.now()) / 1000));
      return reply.header('set-cookie', cookie(opened.browserToken, maxAge)).header('cache-control', 'no-store').redirect('/', 303);
    },
  );

  return {
    /** The registry this request's browser is served while it holds a preview; null: the one in force. */
    async served(request: FastifyRequest, shown: PublicRegistry): Promise<{ preview: Preview; registry: PublicRegistry } | null> {
      const held = previews ? readCookie(request.headers.cookie, cookieName) : undefined;
      const preview = held ? await previews!.held(held) : null;
      // A version marked never to be served again is previewed by no one either.
      if (!preview || (await floored(preview))) return null;
      return previewedRegistry(storage, preview, shown);
    },
  };
}
