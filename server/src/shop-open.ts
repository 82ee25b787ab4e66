/**
 * What a server opens before it builds anything on it: the data directory, the database (created,
 * migrated and seeded on the first start), the secrets, the first operator account, the releases and
 * the file store.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { RELEASE_KEY_FILE, storageFromEnv } from '@shop/release';
import { legacyMetricsToken, loadGatewaySecret, loadJwtSecret, prepareDataDir } from './config.ts';
import { createDatabase, type CreatedDatabase } from './db/create-database.ts';
import { ensureFirstOperator } from './domains/operators/operator-admin.repository.ts';
import { shopReleases, type ShopReleases } from './domains/releases/shop-releases.ts';
import { fileStoreFromEnv } from './file-store-from-env.ts';
import type { FileStore } from './infra/storage/file-store.ts';
import { serverLog } from './shop-settings.ts';
import type { ShopSettings } from './shop-settings.ts';

export type OpenedShop = {
  settings: ShopSettings;
  database: CreatedDatabase;
  secrets: {
    /** Signs sign-in tokens and telemetry sessions (JWT_SECRET or <DATA_DIR>/jwt-secret). */
    jwt: string;
    /** Shared with the card gateway (GATEWAY_SECRET or <DATA_DIR>/gateway-secret). */
    gateway: string;
    /** The retired operator token, still taken by /api/metrics with METRICS_OPERATOR_TOKEN=on; null: off. */
    legacyMetrics: string | null;
  };
  /** The file holding a new shop's first operator password, when this start created that account. */
  firstOperatorFile: string | null;
  releases: ShopReleases;
  /** Complaint photos and invoice copies: the data directory, or the S3 bucket with S3_BUCKET. */
  files: FileStore;
};

export async function openShop(settings: ShopSettings): Promise<OpenedShop> {
  const { server: config, env } = settings;
  await prepareDataDir(config.dataDir);
  const database = await createDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  serverLog(
    `database: ${database.dialect}${database.seeded ? `, created and seeded in ${(database.seedMs / 1000).toFixed(1)} s` : ', reused'}`,
  );
  const jwt = await loadJwtSecret(env, config.dataDir);
  const legacyMetrics = await legacyMetricsToken(env, config.dataDir);
  // A new shop's first operator account, so that the console can be signed in to at once.
  const firstOperatorFile = await ensureFirstOperator(database.db, config.dataDir);
  const gateway = await loadGatewaySecret(env, config.dataDir);
  // Releases: the origin directory, or an S3 bucket (S3_BUCKET) cached under <origin>/.s3-cache.
  const releases = shopReleases(database.db, storageFromEnv(env, config.originDir));
  if (existsSync(join(config.dataDir, RELEASE_KEY_FILE)))
    serverLog(
      `WARNING: a private release key lies in ${join(config.dataDir, RELEASE_KEY_FILE)}, within this server's reach and its backups: move it out with \`npm run credentials -- shop-key-create\``,
    );
  return {
    settings,
    database,
    secrets: { jwt, gateway, legacyMetrics },
    firstOperatorFile,
    releases,
    files: fileStoreFromEnv(env, config.dataDir),
  };
}
