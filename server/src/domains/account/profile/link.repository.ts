import type { DbOrTrx } from '../../../db/database.ts';

/**
 * One-time links sent by e-mail: password resets and e-mail changes. Only the SHA-256 of a link's
 * token is stored; a link is claimed with one conditional update, so it works once even when it is
 * opened twice at the same time.
 */
export class LinkRepository {
  constructor(private readonly db: DbOrTrx) {}

  async addPasswordReset(link: { tokenHash: string; userId: number; createdAt: string; expiresAt: string }): Promise<void> {
    await this.db
      .insertInto('password_resets')
      .values({ token_hash: link.tokenHash, user_id: link.userId, created_at: link.createdAt, expires_at: link.expiresAt, used_at: null })
      .execute();
  }

  /** Marks an unused, unexpired reset link used; the account it was for, or undefined. */
  async claimPasswordReset(tokenHash: string, now: string): Promise<number | undefined> {
    const row = await this.db
      .updateTable('password_resets')
      .set({ used_at: now })
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returning('user_id')
      .executeTakeFirst();
    return row?.user_id;
  }

  /** Every other open reset link of the account stops working. */
  async endPasswordResets(userId: number, now: string): Promise<void> {
    await this.db.updateTable('password_resets').set({ used_at: now }).where('user_id', '=', userId).where('used_at', 'is', null).execute();
  }

  async deletePasswordResets(userId: number): Promise<void> {
    await this.db.deleteFrom('password_resets').where('user_id', '=', userId).execute();
  }

  /** The newest e-mail waiting for its link to be opened, or null. */
  async pendingEmail(userId: number, now: string): Promise<string | null> {
    const row = await this.db
      .selectFrom('email_changes')
      .select('new_email')
      .where('user_id', '=', userId)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .orderBy('created_at', 'desc')
      .executeTakeFirst();
    return row?.new_email ?? null;
  }

  /** Open e-mail change links of the account stop working (a newer request replaces them). */
  async endEmailChanges(userId: number, now: string): Promise<void> {
    await this.db.updateTable('email_changes').set({ used_at: now }).where('user_id', '=', userId).where('used_at', 'is', null).execute();
  }

  async addEmailChange(link: { tokenHash: string; userId: number; newEmail: string; createdAt: string; expiresAt: string }): Promise<void> {
    await this.db
      .insertInto('email_changes')
      .values({
        token_hash: link.tokenHash,
        user_id: link.userId,
        new_email: link.newEmail,
        created_at: link.createdAt,
        expires_at: link.expiresAt,
        used_at: null,
      })
      .execute();
  }

  /** Marks the account's unused, unexpired e-mail change link used; the new e-mail, or undefined. */
  async claimEmailChange(tokenHash: string, userId: number, now: string): Promise<string | undefined> {
    const row = await this.db
      .updateTable('email_changes')
      .set({ used_at: now })
      .where('token_hash', '=', tokenHash)
      .where('user_id', '=', userId)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returning('new_email')
      .executeTakeFirst();
    return row?.new_email;
  }
}
