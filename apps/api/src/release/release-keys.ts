/**
 * The keys whose signatures on release manifests the shop accepts, kept in its database (never on
 * the origin, where whoever could change a file could change a key too), and the shop's own release
 * key: RELEASE_SIGNING_KEY, or one generated once into the data directory (mode 600), used by the
 * release command with direct access to the origin (`npm start`, an operator's machine). A team's
 * key is made with its release credential (`npm run credentials -- create`).
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SECRET_FILES } from '../config.ts';
import type { DbOrTrx } from '../db/database.ts';
import { generateSigningKey, publicKeyPemOf, readSigningKey, type SigningKey, type TrustedKey } from './signing.ts';

/** Owner name of the shop's own release key. */
export const SHOP_KEY_OWNER = 'shop';
/** How long a server reuses the list of accepted keys (ms): a revoked key stops counting within it. */
const KEYS_TTL_MS = 5000;

/** The shop's release key: RELEASE_SIGNING_KEY (PEM), or <dataDir>/release-signing-key.pem, made on first use. */
export async function loadShopReleaseKey(env: NodeJS.ProcessEnv, dataDir: string, options: { create?: boolean } = {}): Promise<SigningKey> {
  if (env.RELEASE_SIGNING_KEY?.trim()) return readSigningKey(env.RELEASE_SIGNING_KEY);
  const file = join(dataDir, SECRET_FILES.releaseKey);
  const existing = await readFile(file, 'utf8').catch(() => null);
  if (existing?.trim()) return readSigningKey(existing);
  if (options.create === false) {
    throw new Error(`There is no release signing key in ${dataDir}: set RELEASE_SIGNING_KEY (a team's key, from \`npm run credentials -- create\`) or DATA_DIR (the shop's data directory)`);
  }
  const made = generateSigningKey();
  await mkdir(dataDir, { recursive: true });
  // 'wx': two processes starting at once keep the first one's key.
  await writeFile(file, made.privateKeyPem, { mode: 0o600, flag: 'wx' }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error;
  });
  return readSigningKey(await readFile(file, 'utf8'));
}

export type ReleaseKeys = {
  /** Keys not revoked (briefly cached). */
  trusted(): Promise<TrustedKey[]>;
  /** Adds a key (nothing when its id is known already). */
  register(key: { keyId: string; owner: string; area: string | null; publicKey: string }): Promise<void>;
  /** Distrusts every key of an owner: its signatures, old and new, stop counting. */
  revokeOwner(owner: string): Promise<number>;
  /** Records an uploaded manifest's signature; false when it was accepted before (a replay). */
  acceptSignature(entry: { signature: string; keyId: string; part: string; version: string }): Promise<boolean>;
};

export function releaseKeys(db: DbOrTrx): ReleaseKeys {
  let cached: { at: number; keys: Promise<TrustedKey[]> } | null = null;
  return {
    trusted() {
      if (!cached || Date.now() - cached.at > KEYS_TTL_MS) {
        const keys = db
          .selectFrom('release_signing_keys')
          .select(['key_id', 'owner', 'area', 'public_key'])
          .where('revoked_at', 'is', null)
          .execute()
          .then((rows) => rows.map((row) => ({ keyId: row.key_id, owner: row.owner, area: row.area, publicKey: row.public_key })));
        keys.catch(() => {
          cached = null;
        });
        cached = { at: Date.now(), keys };
      }
      return cached.keys;
    },
    async register(key) {
      await db
        .insertInto('release_signing_keys')
        .values({ key_id: key.keyId, owner: key.owner, area: key.area, public_key: key.publicKey, created_at: new Date().toISOString(), revoked_at: null })
        .onConflict((conflict) => conflict.column('key_id').doNothing())
        .execute();
      cached = null;
    },
    async revokeOwner(owner) {
      const result = await db.updateTable('release_signing_keys').set({ revoked_at: new Date().toISOString() }).where('owner', '=', owner).where('revoked_at', 'is', null).executeTakeFirst();
      cached = null;
      return Number(result.numUpdatedRows);
    },
    async acceptSignature(entry) {
      const signatureHash = createHash('sha256').update(entry.signature.trim()).digest('hex');
      const result = await db
        .insertInto('release_signatures')
        .values({ signature_hash: signatureHash, key_id: entry.keyId, part: entry.part, version: entry.version, accepted_at: new Date().toISOString() })
        .onConflict((conflict) => conflict.column('signature_hash').doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
    },
  };
}

/** Registers the shop's own release key (every server does at start; the first one adds it). */
export async function registerShopKey(keys: ReleaseKeys, key: SigningKey): Promise<void> {
  await keys.register({ keyId: key.keyId, owner: SHOP_KEY_OWNER, area: null, publicKey: publicKeyPemOf(key) });
}

/** A new key for a team's credential: its public half is registered for the team's area, its private half returned once (never stored). */
export async function createTeamSigningKey(keys: ReleaseKeys, owner: string, area: string): Promise<{ keyId: string; privateKeyPem: string }> {
  const made = generateSigningKey();
  await keys.register({ keyId: made.keyId, owner, area, publicKey: made.publicKeyPem });
  return { keyId: made.keyId, privateKeyPem: made.privateKeyPem };
}
