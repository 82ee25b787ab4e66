/**
 * The account's own data (issue 6): sign-up, password reset by a one-time e-mailed link, the
 * profile, password change and account deletion (personal data anonymised, orders kept).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { CompanyData, Profile, ProfileInput } from '@shop/shared-kernel/contract';
import { checkPassword, normalizeOptionalPhone, validateProfile } from '@shop/shared-kernel/rules';
import type { Db, DbOrTrx } from '../../db/database.ts';
import type { TokenService } from '../../lib/auth.ts';
import { ApiError, unauthorized } from '../../lib/errors.ts';
import { hashPassword, verifyPassword } from '../../lib/password.ts';
import { queueMail } from '../documents/mail-outbox.ts';

export const RESET_TTL_MS = 60 * 60_000;
export const EMAIL_CHANGE_TTL_MS = 24 * 60 * 60_000;
const EMAIL_CHANGE_INVALID = 'Odkaz na potvrdenie e-mailu je neplatný, už bol použitý alebo vypršal. Zmeňte e-mail v profile znova.';
const RESET_INVALID = 'Odkaz na obnovenie hesla je neplatný, už bol použitý alebo vypršal. Požiadajte o nový.';
const WRONG_PASSWORD = 'Zadané heslo nie je správne.';
const EMAIL_TAKEN = 'Tento e-mail nemožno použiť. Zadajte iný.';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const invalid = (message: string) => new ApiError(422, 'validation_failed', message);

function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || /UNIQUE constraint failed/.test(e?.message ?? '');
}

function normalizeCompany(company: CompanyData | null): CompanyData | null {
  if (!company) return null;
  return {
    name: company.name.trim(),
    ico: company.ico.replace(/\s/g, ''),
    dic: company.dic.replace(/\s/g, ''),
    icDph: company.icDph.replace(/\s/g, '').toUpperCase(),
  };
}

export class AccountService {
  constructor(
    private readonly db: Db,
    private readonly tokens: TokenService,
  ) {}

  /** Queues a plain message in the caller's transaction (the outbox sends it after the commit). */
  private mail(db: DbOrTrx, to: string, subject: string, lines: string[], tag: string) {
    return queueMail(db, { to, subject, text: lines.join('\n'), html: `<p>${lines.map(escapeHtml).join('<br>')}</p>` }, tag);
  }

  /** Creates the account, or, when the e-mail has one, tells its owner by e-mail; the caller answers the same either way. */
  async register(input: { email: string; password: string; name: string; newsletter?: boolean }, origin: string): Promise<void> {
    const email = input.email.trim().toLowerCase();
    const name = input.name.trim().replace(/\s+/g, ' ');
    const errors = validateProfile({ email, name, phone: '', company: null, newsletter: false });
    const messages = [errors.email, errors.name, checkPassword(input.password)].filter(Boolean);
    if (messages.length > 0) throw invalid(messages.join(' '));
    const hash = await hashPassword(input.password);
    const existing = await this.db.selectFrom('users').select('user_id').where('email', '=', email).executeTakeFirst();
    if (!existing) {
      try {
        await this.db.transaction().execute(async (trx) => {
          await trx
            .insertInto('users')
            .values({ email, name, password_hash: hash, newsletter: input.newsletter ? 1 : 0, created_at: new Date().toISOString(), company_json: null, deleted_at: null, sessions_valid_after: null })
            .execute();
          await this.mail(trx, email, 'Vitajte v obchode Stavebniny Domov', [
          `Dobrý deň, ${name},`,
          '',
          'váš zákaznícky účet je pripravený. Prihlásiť sa môžete tu:',
          `${origin}/account/login`,
          '',
            'Ak ste sa neregistrovali vy, napíšte nám odpoveďou na tento e-mail.',
          ], 'registracia');
        });
        return;
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
      }
    }
    await this.mail(this.db, email, 'Pokus o registráciu v obchode Stavebniny Domov', [
      'Dobrý deň,',
      '',
      'niekto sa pokúsil zaregistrovať s vaším e-mailom, ku ktorému už účet máte.',
      `Ak ste to boli vy, prihláste sa (${origin}/account/login) alebo si nastavte nové heslo: ${origin}/account/password-reset`,
      '',
      'Ak nie, tento e-mail môžete ignorovať.',
    ], 'registracia-existuje');
  }

  /** A one-time link valid for an hour, when the e-mail has an account; nothing otherwise. */
  async requestReset(address: string, origin: string): Promise<void> {
    const email = address.trim().toLowerCase();
    const user = await this.db.selectFrom('users').select(['user_id', 'email']).where('email', '=', email).where('deleted_at', 'is', null).executeTakeFirst();
    if (!user) return;
    const token = randomBytes(32).toString('base64url');
    const now = Date.now();
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('password_resets')
        .values({ token_hash: sha256(token), user_id: user.user_id, created_at: new Date(now).toISOString(), expires_at: new Date(now + RESET_TTL_MS).toISOString(), used_at: null })
        .execute();
      await this.mail(trx, user.email, 'Nové heslo do obchodu Stavebniny Domov', [
        'Dobrý deň,',
        '',
        'nové heslo si nastavíte na tomto odkaze (platí 1 hodinu a len raz):',
        `${origin}/account/password-reset?token=${token}`,
        '',
        'Ak ste o nové heslo nežiadali, tento e-mail ignorujte; vaše heslo sa nezmení.',
      ], 'nove-heslo');
    });
  }

  /** Sets the new password once per link; ends every session of the account. */
  async confirmReset(token: string, password: string): Promise<void> {
    const now = new Date().toISOString();
    const hash = await hashPassword(password);
    await this.db.transaction().execute(async (trx) => {
      // Claim the link with one conditional update, so it works once even when used twice at the same time.
      const claimed = await trx
        .updateTable('password_resets')
        .set({ used_at: now })
        .where('token_hash', '=', sha256(token))
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .returning('user_id')
        .executeTakeFirst();
      if (!claimed) throw new ApiError(400, 'bad_request', RESET_INVALID);
      await trx.updateTable('users').set({ password_hash: hash, sessions_valid_after: now }).where('user_id', '=', claimed.user_id).where('deleted_at', 'is', null).execute();
      await trx.updateTable('password_resets').set({ used_at: now }).where('user_id', '=', claimed.user_id).where('used_at', 'is', null).execute();
    });
  }

  async profile(userId: number): Promise<Profile> {
    const row = await this.db
      .selectFrom('users')
      .select(['user_id', 'email', 'name', 'phone', 'company_json', 'newsletter', 'created_at'])
      .where('user_id', '=', userId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!row) throw unauthorized('Prihláste sa, prosím.');
    const pending = await this.db
      .selectFrom('email_changes')
      .select('new_email')
      .where('user_id', '=', userId)
      .where('used_at', 'is', null)
      .where('expires_at', '>', new Date().toISOString())
      .orderBy('created_at', 'desc')
      .executeTakeFirst();
    return {
      id: row.user_id,
      email: row.email,
      name: row.name,
      phone: row.phone,
      company: row.company_json ? (JSON.parse(row.company_json) as CompanyData) : null,
      newsletter: row.newsletter === 1,
      createdAt: row.created_at,
      pendingEmail: pending?.new_email ?? null,
    };
  }

  /**
   * Saves the profile. A new e-mail (the sign-in name) is not taken at once: a link goes to the new
   * address and the change happens when it is opened (confirmEmailChange). The answer is the same
   * whether the address is free or belongs to another account (whose owner is told by e-mail), so
   * the profile cannot be used to find out who has an account.
   */
  async updateProfile(userId: number, input: ProfileInput, origin: string): Promise<Profile> {
    const errors = validateProfile(input);
    const messages = [...new Set(Object.values(errors))];
    if (messages.length > 0) throw invalid(messages.join(' '));
    const email = input.email.trim().toLowerCase();
    const current = await this.db.selectFrom('users').select(['email', 'password_hash']).where('user_id', '=', userId).executeTakeFirstOrThrow();
    const emailChanges = email !== current.email;
    // Changing the e-mail needs the password.
    if (emailChanges && (!input.currentPassword || !(await verifyPassword(input.currentPassword, current.password_hash)))) {
      throw new ApiError(403, 'forbidden', 'Na zmenu e-mailu zadajte svoje súčasné heslo.');
    }
    const now = Date.now();
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('users')
        .set({
          name: input.name.trim().replace(/\s+/g, ' '),
          phone: normalizeOptionalPhone(input.phone) ?? '',
          company_json: input.company ? JSON.stringify(normalizeCompany(input.company)) : null,
          newsletter: input.newsletter ? 1 : 0,
        })
        .where('user_id', '=', userId)
        .execute();
      if (!emailChanges) return;
      // A newer request replaces an older one.
      await trx.updateTable('email_changes').set({ used_at: new Date(now).toISOString() }).where('user_id', '=', userId).where('used_at', 'is', null).execute();
      const token = randomBytes(32).toString('base64url');
      await trx
        .insertInto('email_changes')
        .values({ token_hash: sha256(token), user_id: userId, new_email: email, created_at: new Date(now).toISOString(), expires_at: new Date(now + EMAIL_CHANGE_TTL_MS).toISOString(), used_at: null })
        .execute();
      const taken = await trx.selectFrom('users').select('user_id').where('email', '=', email).executeTakeFirst();
      if (taken) {
        await this.mail(trx, email, 'Pokus o zmenu e-mailu v obchode Stavebniny Domov', [
          'Dobrý deň,',
          '',
          'niekto sa pokúsil nastaviť vašu e-mailovú adresu inému zákazníckemu účtu. Váš účet s touto adresou zostáva nezmenený.',
          `Ak ste to boli vy, prihláste sa do svojho účtu: ${origin}/account/login`,
          '',
          'Ak nie, tento e-mail môžete ignorovať.',
        ], 'zmena-emailu-obsadeny');
      } else {
        await this.mail(trx, email, 'Potvrďte nový e-mail v obchode Stavebniny Domov', [
          'Dobrý deň,',
          '',
          'potvrďte, prosím, že táto adresa má byť novým e-mailom vášho zákazníckeho účtu (odkaz platí 24 hodín):',
          `${origin}/account/profile?emailToken=${token}`,
          '',
          'Kým zmenu nepotvrdíte, prihlasujete sa doterajším e-mailom. Ak ste o zmenu nežiadali, tento e-mail ignorujte.',
        ], 'zmena-emailu');
      }
    });
    return this.profile(userId);
  }

  /** Takes the new e-mail once per link; refused when the address has meanwhile got an account. */
  async confirmEmailChange(userId: number, token: string): Promise<Profile> {
    const now = new Date().toISOString();
    await this.db.transaction().execute(async (trx) => {
      const claimed = await trx
        .updateTable('email_changes')
        .set({ used_at: now })
        .where('token_hash', '=', sha256(token))
        .where('user_id', '=', userId)
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .returning('new_email')
        .executeTakeFirst();
      if (!claimed) throw new ApiError(400, 'bad_request', EMAIL_CHANGE_INVALID);
      try {
        await trx.updateTable('users').set({ email: claimed.new_email }).where('user_id', '=', userId).where('deleted_at', 'is', null).execute();
      } catch (error) {
        if (isUniqueViolation(error)) throw new ApiError(409, 'conflict', EMAIL_TAKEN);
        throw error;
      }
    }).catch((error: unknown) => {
      // PostgreSQL aborts the transaction on the unique violation; the answer is the same.
      if (isUniqueViolation(error)) throw new ApiError(409, 'conflict', EMAIL_TAKEN);
      throw error;
    });
    return this.profile(userId);
  }

  /** Sets a new password, ends every session that began before, and answers a fresh token. */
  async changePassword(userId: number, currentPassword: string, newPassword: string): Promise<string> {
    const row = await this.db.selectFrom('users').select('password_hash').where('user_id', '=', userId).executeTakeFirstOrThrow();
    if (!(await verifyPassword(currentPassword, row.password_hash))) throw new ApiError(403, 'forbidden', WRONG_PASSWORD);
    const problem = checkPassword(newPassword);
    if (problem) throw invalid(problem);
    const now = new Date().toISOString();
    await this.db.updateTable('users').set({ password_hash: await hashPassword(newPassword), sessions_valid_after: now }).where('user_id', '=', userId).execute();
    // The new token's iat_ms is at or after sessions_valid_after, so it stays valid.
    return this.tokens.issue(userId);
  }

  /**
   * Deletes the account: name, e-mail, phone, company data, addresses, password resets and the
   * active coupon are erased; the user row stays as an anonymous stub so the orders (kept for the
   * accounting and warranty periods the law sets), complaints and withdrawals keep their link.
   */
  async deleteAccount(userId: number, password: string): Promise<void> {
    const row = await this.db.selectFrom('users').select('password_hash').where('user_id', '=', userId).executeTakeFirstOrThrow();
    if (!(await verifyPassword(password, row.password_hash))) throw new ApiError(403, 'forbidden', WRONG_PASSWORD);
    const now = new Date().toISOString();
    const scrambled = await hashPassword(randomBytes(32).toString('base64url'));
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('addresses').where('user_id', '=', userId).execute();
      await trx.deleteFrom('password_resets').where('user_id', '=', userId).execute();
      await trx.deleteFrom('user_coupons').where('user_id', '=', userId).execute();
      await trx
        .updateTable('users')
        .set({
          email: `zmazany-${userId}@anonym.invalid`,
          name: 'Zmazaný zákazník',
          phone: '',
          company_json: null,
          newsletter: 0,
          password_hash: scrambled,
          deleted_at: now,
          sessions_valid_after: now,
        })
        .where('user_id', '=', userId)
        .execute();
    });
  }
}
