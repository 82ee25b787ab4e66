/**
 * Where the release command finds the shop it works on, read from the environment as the server
 * reads it (server/src/config.ts; server/test/releases/release-package.test.ts checks both agree): the repository,
 * the data directory, the origin directory and the shop's public address.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/**
 * The workspace root (the folder holding pnpm-workspace.yaml) at or above `from`: the same from
 * the sources (release/src) and from the API's bundle of the command (api/dist/release).
 */
export function workspaceRoot(from: string = import.meta.dirname): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'pnpm-workspace.yaml'))) return dir;
    if (dirname(dir) === dir) throw new Error(`No pnpm-workspace.yaml above ${from}`);
  }
}

/** DATA_DIR, else `.data` in the repository. */
export const shopDataDir = (env: NodeJS.ProcessEnv, root: string): string => resolve(env.DATA_DIR ?? join(root, '.data'));

/** ORIGIN_DIR, else `origin` in the data directory. */
export const shopOriginDir = (env: NodeJS.ProcessEnv, root: string): string =>
  resolve(env.ORIGIN_DIR ?? join(shopDataDir(env, root), 'origin'));

/** PUBLIC_URL, else the server's own address (HOST and PORT, loopback shown as localhost). */
export function shopPublicUrl(env: NodeJS.ProcessEnv): string {
  const host = env.HOST ?? '127.0.0.1';
  const shown = host === '127.0.0.1' || host === '0.0.0.0' || host === '::' || host === '::1' ? 'localhost' : host;
  return (env.PUBLIC_URL || `http://${shown}:${Number(env.PORT ?? 3000)}`).replace(/\/+$/, '');
}
