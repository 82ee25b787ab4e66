/**
 * Machines' credentials: a secret for one job that a person does not do by hand. The one scope is
 * `metrics` (Prometheus scraping /api/metrics on every server); it opens nothing else. Created,
 * listed and revoked by the owner (`npm run credentials -- metrics-create <name>`), the secret shown
 * once and kept only as a SHA-256 (32 random bytes: nothing to guess).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { DbOrTrx } from '../../db/database.ts';
import { releaseIdentities } from '../releases/identities.repository.ts';

export const MACHINE_SCOPES = ['metrics'] as const;
export type MachineScope = (typeof MACHINE_SCOPES)[number];
export type MachineCredential = { name: string; scope: MachineScope };

const PREFIX = 'shopmet_';
const NAME = /^[a-z0-9][a-z0-9-]{1,39}$/;
const hashOf = (secret: string) => createHash('sha256').update(secret, 'utf8').digest('hex');

/** The machine a secret belongs to, or null (unknown, revoked, or not a machine credential). */
export async function machineCredential(db: DbOrTrx, secret: string): Promise<MachineCredential | null> {
  if (!secret.startsWith(PREFIX) || secret.length > 200) return null;
  const row = await db
    .selectFrom('machine_credentials')
    .select(['name', 'scope'])
    .where('secret_hash', '=', hashOf(secret))
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return row && (MACHINE_SCOPES as readonly string[]).includes(row.scope) ? { name: row.name, scope: row.scope as MachineScope } : null;
}

/** A new credential; its secret is answered once and never stored. */
export async function createMachineCredential(db: DbOrTrx, input: { name: string; scope: MachineScope }): Promise<string> {
  if (!NAME.test(input.name)) throw new Error('a credential name is 2 to 40 lower-case letters, digits or dashes');
  const taken = await db.selectFrom('machine_credentials').select('credential_id').where('name', '=', input.name).executeTakeFirst();
  if (taken) throw new Error(`a machine credential named ${input.name} exists already (revoked ones keep their name)`);
  const secret = `${PREFIX}${randomBytes(32).toString('base64url')}`;
  await db
    .insertInto('machine_credentials')
    .values({ name: input.name, scope: input.scope, secret_hash: hashOf(secret), created_at: new Date().toISOString() })
    .execute();
  await releaseIdentities(db).audit({
    actor: 'owner',
    action: 'machine-create',
    part: null,
    allowed: true,
    detail: `${input.name} (${input.scope})`,
  });
  return secret;
}

export async function revokeMachineCredential(db: DbOrTrx, name: string): Promise<boolean> {
  const result = await db
    .updateTable('machine_credentials')
    .set({ revoked_at: new Date().toISOString() })
    .where('name', '=', name)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  const revoked = Number(result.numUpdatedRows) > 0;
  if (revoked) await releaseIdentities(db).audit({ actor: 'owner', action: 'machine-revoke', part: null, allowed: true, detail: name });
  return revoked;
}

export function listMachineCredentials(db: DbOrTrx) {
  return db.selectFrom('machine_credentials').select(['name', 'scope', 'created_at', 'revoked_at']).orderBy('name').execute();
}
