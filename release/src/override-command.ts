/**
 * `pnpm release override <area>`: a team tries its local build of one area against the real shop in
 * its own browser. The build is checked as a release's is (its facts, routes and bounds here; the
 * kernel contract, React and route clashes against what is in force by the shop), every script
 * digested, served on loopback only (this machine: `http://127.0.0.1:<port>`), and the shop's
 * operator API makes a link for one browser that loads the area from there, checked against those
 * digests (./local-override.ts). Serves until Ctrl+C, then revokes the link.
 */
import { createReadStream } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { readBuild } from './build-info.ts';
import { checkLocalBuild, localFilePrefix, loopbackOrigin, type LocalBuild } from './local-override.ts';
import { ReleaseRefused, type RefusalCode } from './refusal.ts';
import type { AreaName } from './registry.ts';
import { digestBuild, isBrowserScript } from './signing.ts';
import { hashBuild } from './build-info.ts';

/** The build's facts and scripts as a link records them (checked by the same rule the shop applies). */
export async function localBuildOf(
  area: AreaName,
  dir: string,
  packageVersion: string,
  origin: string,
): Promise<{ version: string; build: LocalBuild }> {
  const facts = await readBuild(dir, area);
  if (facts.kind !== 'area') throw new ReleaseRefused('broken_build', `${area} is not an area. Nothing was changed.`);
  // Own compressed copies are refused here as in a release; only the scripts a browser runs are listed.
  const files = Object.fromEntries(Object.entries(await digestBuild(dir)).filter(([file]) => isBrowserScript(file)));
  return checkLocalBuild(area, {
    origin,
    version: `${packageVersion}-${await hashBuild(dir)}`,
    entry: facts.entry,
    kernel: facts.kernel,
    react: facts.react,
    exposes: facts.exposes,
    routes: facts.routes,
    files,
  });
}

/**
 * Serves the listed scripts of a build, and nothing else, on 127.0.0.1 only: GET and HEAD of
 * `/remotes/<area>/<version>/<file>` (the origin's layout, so each build has its own addresses and
 * a browser may keep them for good), readable by the shop's pages alone (CORS for `shopOrigin`, set
 * once the shop named its address). The bytes are read at each request: a file changed since the
 * link was made is sent as it is now, and the browser refuses it (its digest differs).
 */
export type LocalServer = {
  server: Server;
  /** `http://127.0.0.1:<port>`: what the link names. */
  origin: string;
  /** The build's version and listed scripts: served from now on (nothing before). */
  publish(version: string, files: readonly string[]): void;
  /** The shop's origin, whose pages alone may read the files. */
  allow(shopOrigin: string): void;
};

export function serveLocalBuild(options: { area: AreaName; dir: string; port: number }): Promise<LocalServer> {
  let prefix: string | null = null;
  let listed = new Set<string>();
  let shopOrigin: string | null = null;
  let hosts: string[] = [];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    response.setHeader('x-content-type-options', 'nosniff');
    response.setHeader('vary', 'origin');
    // Another site's page reaching this port through a name it resolves to 127.0.0.1 (DNS rebinding) gets nothing.
    if (!hosts.includes(request.headers.host ?? '')) return void response.writeHead(421).end();
    // A browser asks before a public https page may read from this machine (Private Network Access): the shop's pages may.
    if (request.method === 'OPTIONS' && shopOrigin && request.headers.origin === shopOrigin)
      return void response
        .writeHead(204, {
          'access-control-allow-origin': shopOrigin,
          'access-control-allow-methods': 'GET, HEAD',
          'access-control-allow-private-network': 'true',
          'access-control-max-age': '600',
        })
        .end();
    if (request.method !== 'GET' && request.method !== 'HEAD') return void response.writeHead(405, { allow: 'GET, HEAD' }).end();
    const path = (request.url ?? '').split('?')[0] ?? '';
    const file = prefix && path.startsWith(prefix) ? path.slice(prefix.length) : null;
    if (file === null || !listed.has(file)) return void response.writeHead(404).end();
    if (shopOrigin) response.setHeader('access-control-allow-origin', shopOrigin);
    response.writeHead(200, {
      'content-type': 'text/javascript; charset=utf-8',
      'cache-control': 'public, max-age=31536000, immutable',
    });
    if (request.method === 'HEAD') return void response.end();
    createReadStream(join(options.dir, file))
      .on('error', () => response.destroy())
      .pipe(response);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : options.port;
      hosts = [`127.0.0.1:${port}`, `localhost:${port}`];
      resolve({
        server,
        origin: `http://127.0.0.1:${port}`,
        publish: (version, files) => {
          prefix = localFilePrefix(options.area, version);
          listed = new Set(files);
        },
        allow: (origin) => void (shopOrigin = origin),
      });
    });
  });
}

type Answer<T> = { data?: T; error?: { code: string; message: string; refusal?: RefusalCode } } | null;

async function call<T>(server: string, token: string, path: string, body: unknown): Promise<T> {
  const response = await fetch(new URL(path, server), {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = (await response.json().catch(() => null)) as Answer<T>;
  if (response.ok && answer?.data) return answer.data;
  const message = answer?.error?.message ?? `the shop answered ${response.status}`;
  if (answer?.error?.refusal) throw new ReleaseRefused(answer.error.refusal, message);
  throw new Error(`the shop refused: ${message}`);
}

/** Asks the shop's operator API for a local override link (RELEASE_TOKEN: the area team's credential). */
export function requestOverride(options: {
  server: string;
  token: string;
  area: AreaName;
  version: string;
  build: LocalBuild;
}): Promise<{ id: string; url: string; expires: string }> {
  if (!options.token) throw new Error("Set RELEASE_TOKEN (the area team's release credential) to ask the shop for a local override link");
  if (!loopbackOrigin(options.build.origin)) throw new Error('a local build is served on loopback only');
  return call(options.server, options.token, `/api/ops/releases/${options.area}/override`, {
    origin: options.build.origin,
    version: options.version,
    entry: options.build.entry,
    kernel: options.build.kernel,
    react: options.build.react,
    exposes: options.build.exposes,
    routes: options.build.routes,
    files: options.build.files,
  });
}

/** Revokes the link when the developer stops serving (its browser gets the version in force from its next page). */
export function revokeOverride(options: { server: string; token: string; id: string }): Promise<unknown> {
  return call(options.server, options.token, `/api/ops/releases/previews/${options.id}/revoke`, { reason: 'lokálna zostava ukončená' });
}
