/**
 * Who may release what. A signed-in operator (the operator console) may act on every part;
 * an area team's release credential only on its own area: deploy (upload), canary, preview, local override,
 * promote or abort a canary, roll back, pin. Credentials are created and revoked by the shop's
 * owner (`npm run credentials`), their secrets shown once and stored only as SHA-256 hashes
 * (32 random bytes: a fast hash is enough, nothing to guess). Every release action, allowed or
 * refused, is added to the append-only, hash-chained audit log (audit-log.repository.ts), shown in the console.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { DbOrTrx } from '../../db/database.ts';
import type { ReleaseAuditRow } from '../../db/release-identity.table.ts';
import { appendAudit, recentAudit, type AuditEntry } from './audit-log.repository.ts';

/** Who presented a credential: the operator (every part) or a team (one area). */
export type ReleaseActor = { kind: 'operator'; name: string } | { kind: 'team'; name: string; area: string };

export type { AuditEntry };

const PREFIX = 'shoprel_';
const hashOf = (secret: string) => createHash('sha256').update(secret, 'utf8').digest('hex');

export type ReleaseIdentities = {
  /** The team whose credential this is, or null (unknown or revoked). */
  team(secret: string): Promise<ReleaseActor | null>;
  audit(entry: AuditEntry): Promise<void>;
  /** The newest audit entries, newest first. */
  recent(limit: number): Promise<ReleaseAuditRow[]>;
};

export function releaseIdentities(db: DbOrTrx): ReleaseIdentities {
  return {
    async team(secret) {
      if (!secret.startsWith(PREFIX) || secret.length > 200) return null;
      const row = await db
        .selectFrom('release_credentials')
        .select(['name', 'area'])
        .where('secret_hash', '=', hashOf(secret))
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return row ? { kind: 'team', name: row.name, area: row.area } : null;
    },
    audit: (entry) => appendAudit(db, entry),
    recent: (limit) => recentAudit(db, limit),
  };
}

const NAME = /^[a-z0-9][a-z0-9-]{1,39}$/;

/** The owner's commands (credentials-cli.ts): a new credential's secret is answered once, never stored. */
export async function createCredential(db: DbOrTrx, input: { name: string; area: string }): Promise<string> {
  if (!NAME.test(input.name)) throw new Error('a credential name is 2 to 40 lower-case letters, digits or dashes');
  const secret = `${PREFIX}${randomBytes(32).toString('base64url')}`;
  await db
    .insertInto('release_credentials')
    .values({ name: input.name, area: input.area, secret_hash: hashOf(secret), created_at: new Date().toISOString() })
    .execute();
  await releaseIdentities(db).audit({ actor: 'owner', action: 'credential-create', part: input.area, allowed: true, detail: input.name });
  return secret;
}

export async function revokeCredential(db: DbOrTrx, name: string): Promise<boolean> {
  const result = await db
    .updateTable('release_credentials')
    .set({ revoked_at: new Date().toISOString() })
    .where('name', '=', name)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  const revoked = Number(result.numUpdatedRows) > 0;
  if (revoked) await releaseIdentities(db).audit({ actor: 'owner', action: 'credential-revoke', part: null, allowed: true, detail: name });
  return revoked;
}

export function listCredentials(db: DbOrTrx) {
  return db.selectFrom('release_credentials').select(['name', 'area', 'created_at', 'revoked_at']).orderBy('name').execute();
}
