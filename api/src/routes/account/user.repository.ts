import type { User } from '@shop/shared-kernel/contract';
import type { DbOrTrx } from '../../db/database.ts';

export class UserRepository {
  constructor(private readonly db: DbOrTrx) {}

  async byEmail(email: string) {
    return this.db
      .selectFrom('users')
      .select(['user_id', 'email', 'name', 'password_hash'])
      .where('email', '=', email.trim().toLowerCase())
      .executeTakeFirst();
  }

  async byId(userId: number): Promise<User | undefined> {
    const row = await this.db
      .selectFrom('users')
      .select(['user_id', 'email', 'name'])
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row && { id: row.user_id, email: row.email, name: row.name };
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
