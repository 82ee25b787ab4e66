import type { User } from '@shop/shared-kernel/contract';
import type { DbOrTrx } from '../../db/database.ts';

/**
 * What a sign-in token needs from the database, for every route that takes one: whose token it is,
 * since when that user's sessions are valid, and which tokens were ended by logout. Identity is
 * infrastructure (infra/auth/require-user.ts), so its queries live here and not in the account domain,
 * which only writes them (sign-out, password change, account deletion).
 */
export class SessionRepository {
  constructor(private readonly db: DbOrTrx) {}

  /**
   * The user a token names and since when their tokens are valid (ms; 0 when every unexpired token
   * is); undefined for no such user or a deleted one.
   */
  async sessionUser(userId: number): Promise<{ user: User; validAfterMs: number } | undefined> {
    const row = await this.db
      .selectFrom('users')
      .select(['user_id', 'email', 'name', 'sessions_valid_after'])
      .where('user_id', '=', userId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      user: { id: row.user_id, email: row.email, name: row.name },
      validAfterMs: row.sessions_valid_after ? Date.parse(row.sessions_valid_after) : 0,
    };
  }

  async isRevoked(jti: string): Promise<boolean> {
    const row = await this.db.selectFrom('revoked_tokens').select('jti').where('jti', '=', jti).executeTakeFirst();
    return row !== undefined;
  }

  /** Ends a token before it expires; forgets tokens that have expired anyway. */
  async revoke(jti: string, expiresAt: Date): Promise<void> {
    const now = new Date().toISOString();
    await this.db.deleteFrom('revoked_tokens').where('expires_at', '<', now).execute();
    await this.db
      .insertInto('revoked_tokens')
      .values({ jti, expires_at: expiresAt.toISOString() })
      .onConflict((oc) => oc.column('jti').doNothing())
      .execute();
  }
}
