/** Server settings from the environment, with defaults for `npm start`. */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

export type ServerConfig = {
  dataDir: string;
  originDir: string;
  host: string;
  port: number;
  assetPort: number;
  assetOrigin: string | null;
  databaseUrl: string | undefined;
  gtmId: string | null;
  registryPollMs: number;
};

function port(value: string | undefined, fallback: number): number {
  const parsed = Number(value ?? fallback);
  if (!Number.isInteger(parsed) || parsed < 0 || parsed > 65535) throw new Error(`Invalid port: ${value}`);
  return parsed;
}

export function readServerConfig(env: NodeJS.ProcessEnv): ServerConfig {
  const dataDir = resolve(env.DATA_DIR ?? join(import.meta.dirname, '..', '..', '.data'));
  const appPort = port(env.PORT, 3000);
  return {
    dataDir,
    originDir: resolve(env.ORIGIN_DIR ?? join(dataDir, 'origin')),
    host: env.HOST ?? '127.0.0.1',
    port: appPort,
    assetPort: port(env.ASSET_PORT, appPort + 1),
    assetOrigin: env.ASSET_ORIGIN ?? null,
    databaseUrl: env.DATABASE_URL || undefined,
    gtmId: env.GTM_ID || null,
    registryPollMs: Number(env.REGISTRY_POLL_MS ?? 60_000),
  };
}

/** The token signing secret: JWT_SECRET, or one generated once and kept in the data directory. */
export async function loadJwtSecret(env: NodeJS.ProcessEnv, dataDir: string): Promise<string> {
  if (env.JWT_SECRET) return env.JWT_SECRET;
  const file = join(dataDir, 'jwt-secret');
  const existing = await readFile(file, 'utf8').catch(() => null);
  if (existing?.trim()) return existing.trim();
  const secret = randomBytes(32).toString('base64url');
  await mkdir(dataDir, { recursive: true });
  await writeFile(file, secret, { mode: 0o600 });
  return secret;
}
