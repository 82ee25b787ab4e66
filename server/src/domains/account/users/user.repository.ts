import type { DbOrTrx } from '../../../db/database.ts';

/** Columns of the profile the shopper edits. */
export type ProfileValues = { name: string; phone: string; company_json: string | null; newsletter: number };

/** The users table as the account sees it: sign-in, sign-up, profile, password, deletion. */
export class UserRepository {
  constructor(private readonly db: DbOrTrx) {}

  /** An account that can sign in (not deleted), by e-mail as typed. */
  async byEmail(email: string) {
    return this.db
      .selectFrom('users')
      .select(['user_id', 'email', 'name', 'password_hash'])
      .where('email', '=', email.trim().toLowerCase())
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
  }

  /** Whether any account (a deleted one's e-mail is anonymised) has this lower-case e-mail. */
  async emailTaken(email: string): Promise<boolean> {
    const row = await this.db.selectFrom('users').select('user_id').where('email', '=', email).executeTakeFirst();
    return row !== undefined;
  }

  async insert(user: { email: string; name: string; passwordHash: string; newsletter: boolean }): Promise<void> {
    await this.db
      .insertInto('users')
      .values({
        email: user.email,
        name: user.name,
        password_hash: user.passwordHash,
        newsletter: user.newsletter ? 1 : 0,
        created_at: new Date().toISOString(),
        company_json: null,
        deleted_at: null,
        sessions_valid_after: null,
      })
      .execute();
  }

  /** The e-mail and password hash of an account (which exists: the caller is signed in). */
  async credentials(userId: number) {
    return this.db.selectFrom('users').select(['email', 'password_hash']).where('user_id', '=', userId).executeTakeFirstOrThrow();
  }

  /** The profile's columns of an account that is not deleted. */
  async profile(userId: number) {
    return this.db
      .selectFrom('users')
      .select(['user_id', 'email', 'name', 'phone', 'company_json', 'newsletter', 'created_at'])
      .where('user_id', '=', userId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
  }

  async updateProfile(userId: number, values: ProfileValues): Promise<void> {
    await this.db.updateTable('users').set(values).where('user_id', '=', userId).execute();
  }

  async setEmail(userId: number, email: string): Promise<void> {
    await this.db.updateTable('users').set({ email }).where('user_id', '=', userId).where('deleted_at', 'is', null).execute();
  }

  /** A new password; tokens issued before `sessionsValidAfter` stop working. */
  async setPassword(userId: number, passwordHash: string, sessionsValidAfter: string): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ password_hash: passwordHash, sessions_valid_after: sessionsValidAfter })
      .where('user_id', '=', userId)
      .where('deleted_at', 'is', null)
      .execute();
  }

  /** Erases the personal data of the row, which stays as an anonymous stub; ends every session. */
  async anonymise(userId: number, scrambledPasswordHash: string, now: string): Promise<void> {
    await this.db
      .updateTable('users')
      .set({
        email: `zmazany-${userId}@anonym.invalid`,
        name: 'Zmazaný zákazník',
        phone: '',
        company_json: null,
        newsletter: 0,
        password_hash: scrambledPasswordHash,
        deleted_at: now,
        sessions_valid_after: now,
      })
      .where('user_id', '=', userId)
      .execute();
  }
}
