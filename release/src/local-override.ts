/**
 * Local overrides: a preview link (./preview.ts) whose version is not on the origin but served from
 * the developer's own machine (`pnpm release override <area>`, on loopback). The link records the
 * build's facts and the SHA-384 of each of its scripts when it is made; the one browser holding it
 * loads that area from the loopback origin, every script checked against those digests, so a file
 * changed after the link was made does not run. The rules both sides share are here: which origins
 * are loopback, the bounds of what a link records, and the release it becomes in a page's registry.
 */
import type { AreaRelease, AreaName, RouteSpec } from './registry.ts';
import { isVersionName } from './registry.ts';
import { partPrefix } from './release-paths.ts';
import { ReleaseRefused } from './refusal.ts';
import { parseRouteSpecs } from './route-specs.ts';
import { recordedVersion } from './build-info.ts';
import { isBrowserScript, type FileDigest } from './signing.ts';
import { isSafeBuildPath, UPLOAD_LIMITS } from './upload-bundle.ts';

/** What a local override link records of the build: its facts and the digest of every script a browser may load. */
export type LocalBuild = {
  /** `http://127.0.0.1:<port>` or `http://localhost:<port>`: the developer's machine, as the browser reaches it. */
  origin: string;
  /** The build's remote entry, a path inside it (e.g. `remoteEntry.js`). */
  entry: string;
  kernel: string;
  react: string | null;
  exposes: string[];
  routes: RouteSpec[];
  /** Every browser script of the build (path inside it) with its SHA-384 and size. */
  files: Record<string, FileDigest>;
};

/** At most this many exposed modules (a real area has a handful). */
const MAX_EXPOSES = 50;
const MODULE = /^\.\/[A-Za-z0-9_-]{1,60}$/;
const LOOPBACK = /^http:\/\/(127\.0\.0\.1|localhost):([0-9]{1,5})$/;

/**
 * The loopback origin a value names, or null: exactly `http://127.0.0.1:<port>` or
 * `http://localhost:<port>` (port 1–65535), nothing before or after. Only the developer's own
 * machine: a link can never point a browser at another host.
 */
export function loopbackOrigin(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > 40) return null;
  const match = LOOPBACK.exec(value);
  if (!match) return null;
  const port = Number(match[2]);
  if (!Number.isInteger(port) || port < 1 || port > 65_535 || String(port) !== match[2]) return null;
  return `http://${match[1]}:${port}`;
}

function refuse(message: string): never {
  throw new ReleaseRefused('broken_build', `${message} Nothing was changed.`);
}

/**
 * What a request for a local override says of the build, checked and bounded as a release's facts
 * are (the routes by the same rule, every path a safe build path, every digest a SHA-384); refused
 * as a broken build otherwise. The origin is checked apart (loopbackOrigin), with its own answer.
 */
export function checkLocalBuild(
  area: AreaName,
  input: {
    origin: string;
    version: string;
    entry: unknown;
    kernel: unknown;
    react?: unknown;
    exposes: unknown;
    routes: unknown;
    files: unknown;
  },
): { version: string; build: LocalBuild } {
  const origin = loopbackOrigin(input.origin);
  if (!origin) refuse('A local build is served from http://127.0.0.1:<port> or http://localhost:<port> only.');
  if (!isVersionName(input.version)) refuse('The local build names no valid version.');
  if (typeof input.kernel !== 'string' || !/^[0-9A-Za-z.+-]{1,40}$/.test(input.kernel)) refuse('The local build names no kernel contract.');
  const react = recordedVersion(input.react, area);
  if (!Array.isArray(input.exposes) || input.exposes.length === 0 || input.exposes.length > MAX_EXPOSES)
    refuse(`The local build exposes no module or more than ${MAX_EXPOSES}.`);
  const exposes = input.exposes as unknown[];
  if (!exposes.every((name): name is string => typeof name === 'string' && MODULE.test(name)))
    refuse('The local build exposes a module without a valid name.');
  if (typeof input.files !== 'object' || input.files === null || Array.isArray(input.files)) refuse('The local build lists no files.');
  const entries = Object.entries(input.files as Record<string, unknown>);
  if (entries.length === 0 || entries.length > UPLOAD_LIMITS.files)
    refuse(`The local build lists ${entries.length} files; a build has 1 to ${UPLOAD_LIMITS.files}.`);
  const files: Record<string, FileDigest> = {};
  let total = 0;
  for (const [path, digest] of entries) {
    if (!isSafeBuildPath(path) || !isBrowserScript(path))
      refuse(`The local build lists ${path.slice(0, 80)}, which is not a script of a build.`);
    const { sha384, size } = (digest ?? {}) as Partial<FileDigest>;
    if (typeof sha384 !== 'string' || !/^[A-Za-z0-9+/]{64}$/.test(sha384) || !Number.isSafeInteger(size) || size! < 0)
      refuse(`The local build's digest of ${path.slice(0, 80)} is not a SHA-384 and a size.`);
    total += size!;
    if (size! > UPLOAD_LIMITS.fileBytes || total > UPLOAD_LIMITS.totalBytes) refuse('The local build is larger than a release may be.');
    files[path] = { sha384: sha384!, size: size! };
  }
  if (typeof input.entry !== 'string' || !files[input.entry]) refuse('The local build’s entry is not one of its listed scripts.');
  // The same rule as a release's routes; none is rendered on the server (the server cannot reach the build).
  const routes = parseRouteSpecs(area, input.routes, exposes as string[]).map(({ serverRender: _serverRender, ...route }) => route);
  return {
    version: input.version,
    build: {
      origin: origin!,
      entry: input.entry as string,
      kernel: input.kernel as string,
      react,
      exposes: exposes as string[],
      routes,
      files,
    },
  };
}

/** Where the loopback server serves a build's files: the same layout as the origin's, so every version has its own addresses. */
export const localFilePrefix = (area: AreaName, version: string) => `/${partPrefix(area, version)}/`;

/** The release a browser holding a local override is served for that area: its entry at the loopback origin. */
export function localRelease(area: AreaName, version: string, build: LocalBuild): AreaRelease {
  return {
    version,
    entry: `${build.origin}${localFilePrefix(area, version)}${build.entry}`,
    kernel: build.kernel,
    exposes: build.exposes,
    routes: build.routes,
  };
}
