import type { User } from '@shop/shared-kernel/contract';
import type { DbOrTrx } from '../../db/database.ts';

export class UserRepository {
  constructor(private readonly db: DbOrTrx) {}

  async byEmail(email: string) {
    return this.db
      .selectFrom('users')
      .select(['user_id', 'email', 'name', 'password_hash'])
      .where('email', '=', email.trim().toLowerCase())
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
  }

  async byId(userId: number): Promise<User | undefined> {
    const row = await this.db
      .selectFrom('users')
      .select(['user_id', 'email', 'name'])
      .where('user_id', '=', userId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return row && { id: row.user_id, email: row.email, name: row.name };
  }

  /** Since when the user's tokens are valid (ms), 0 when all unexpired tokens are; null for no such (or a deleted) user. */
  async sessionsValidAfter(userId: number): Promise<number | null> {
    const row = await this.db
      .selectFrom('users')
      .select(['sessions_valid_after'])
      .where('user_id', '=', userId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!row) return null;
    return row.sessions_valid_after ? Date.parse(row.sessions_valid_after) : 0;
  }

  /** Ends a token before it expires; forgets tokens that have expired anyway. */
  async revokeToken(jti: string, expiresAt: Date): Promise<void> {
    const now = new Date().toISOString();
    await this.db.deleteFrom('revoked_tokens').where('expires_at', '<', now).execute();
    await this.db
      .insertInto('revoked_tokens')
      .values({ jti, expires_at: expiresAt.toISOString() })
      .onConflict((oc) => oc.column('jti').doNothing())
      .execute();
  }

  async isRevoked(jti: string): Promise<boolean> {
    const row = await this.db.selectFrom('revoked_tokens').select('jti').where('jti', '=', jti).executeTakeFirst();
    return row !== undefined;
  }
}
