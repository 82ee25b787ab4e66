/**
 * The keys whose signatures on release manifests the shop accepts, kept in its database (never on
 * the origin, where whoever could change a file could change a key too). The shop's own key is
 * loaded by @shop/release (shop-key.ts); a team's key is made with its release credential
 * (`npm run credentials -- create`).
 */
import { createHash } from 'node:crypto';
import { generateSigningKey, publicKeyPemOf, SHOP_KEY_OWNER, type SigningKey, type TrustedKey } from '@shop/release';
import type { DbOrTrx } from '../../db/database.ts';

/** How long a server reuses the list of accepted keys (ms): a revoked key stops counting within it. */
const KEYS_TTL_MS = 5000;

export type ReleaseKeys = {
  /** Keys not revoked (briefly cached). */
  trusted(): Promise<TrustedKey[]>;
  /** Adds a key (nothing when its id is known already). */
  register(key: { keyId: string; owner: string; area: string | null; publicKey: string }): Promise<void>;
  /** Distrusts every key of an owner: its signatures, old and new, stop counting. */
  revokeOwner(owner: string): Promise<number>;
  /** Records an uploaded manifest's (or a move request's) signature by its decoded bytes; false when it was accepted before (a replay). */
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
        .values({
          key_id: key.keyId,
          owner: key.owner,
          area: key.area,
          public_key: key.publicKey,
          created_at: new Date().toISOString(),
          revoked_at: null,
        })
        .onConflict((conflict) => conflict.column('key_id').doNothing())
        .execute();
      cached = null;
    },
    async revokeOwner(owner) {
      const result = await db
        .updateTable('release_signing_keys')
        .set({ revoked_at: new Date().toISOString() })
        .where('owner', '=', owner)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      cached = null;
      return Number(result.numUpdatedRows);
    },
    async acceptSignature(entry) {
      // The signature's bytes, not its text: base64's unused bits spell one signature 16 ways.
      const signatureHash = createHash('sha256').update(signatureBytes(entry.signature)).digest('hex');
      const result = await db
        .insertInto('release_signatures')
        .values({
          signature_hash: signatureHash,
          key_id: entry.keyId,
          part: entry.part,
          version: entry.version,
          accepted_at: new Date().toISOString(),
        })
        .onConflict((conflict) => conflict.column('signature_hash').doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
    },
  };
}

/** A base64 signature's bytes (every spelling of one signature gives the same bytes). */
export const signatureBytes = (signature: string): Buffer => Buffer.from(signature.trim(), 'base64');

/** Registers the shop's own release key (every server does at start; the first one adds it). */
export async function registerShopKey(keys: ReleaseKeys, key: SigningKey): Promise<void> {
  await keys.register({ keyId: key.keyId, owner: SHOP_KEY_OWNER, area: null, publicKey: publicKeyPemOf(key) });
}

/** A new key for a team's credential: its public half is registered for the team's area, its private half returned once (never stored). */
export async function createTeamSigningKey(
  keys: ReleaseKeys,
  owner: string,
  area: string,
): Promise<{ keyId: string; privateKeyPem: string }> {
  const made = generateSigningKey();
  await keys.register({ keyId: made.keyId, owner, area, publicKey: made.publicKeyPem });
  return { keyId: made.keyId, privateKeyPem: made.privateKeyPem };
}
