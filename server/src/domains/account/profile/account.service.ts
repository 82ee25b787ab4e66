/**
 * The account's own data: sign-in and sign-out, sign-up, password reset by a one-time e-mailed
 * link, the profile, password change and account deletion (personal data anonymised, orders kept).
 * The rules are here; the queries are the repositories'.
 */
import { createHash, randomBytes } from 'node:crypto';
import { shopPaths, type CompanyData, type Profile, type ProfileInput, type User } from '@shop/shared-kernel/contract';
import { checkPassword, normalizeOptionalPhone, validateProfile } from '@shop/shared-kernel/rules';
import type { Db, DbOrTrx } from '../../../db/database.ts';
import type { TokenService } from '../../../infra/auth/auth.ts';
import { ApiError, unauthorized } from '../../../infra/http/errors.ts';
import { escapeHtml } from '../../../infra/pure/html.ts';
import { DUMMY_HASH, hashPassword, verifyPassword } from '../../../infra/pure/password.ts';
import { SessionRepository } from '../../../infra/auth/session.repository.ts';
import { queueMail } from '../../../infra/outbox/mail-outbox.ts';
import { AddressRepository } from '../addresses/address.repository.ts';
import { CouponRepository } from '../../ordering/coupon/coupon.repository.ts';
import { LinkRepository } from './link.repository.ts';
import { UserRepository } from '../users/user.repository.ts';

export const RESET_TTL_MS = 60 * 60_000;
export const EMAIL_CHANGE_TTL_MS = 24 * 60 * 60_000;
const EMAIL_CHANGE_INVALID = 'Odkaz na potvrdenie e-mailu je neplatný, už bol použitý alebo vypršal. Zmeňte e-mail v profile znova.';
const RESET_INVALID = 'Odkaz na obnovenie hesla je neplatný, už bol použitý alebo vypršal. Požiadajte o nový.';
const WRONG_PASSWORD = 'Zadané heslo nie je správne.';
const EMAIL_TAKEN = 'Tento e-mail nemožno použiť. Zadajte iný.';

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
  private readonly users: UserRepository;
  private readonly links: LinkRepository;

  constructor(
    private readonly db: Db,
    private readonly tokens: TokenService,
  ) {
    this.users = new UserRepository(db);
    this.links = new LinkRepository(db);
  }

  /** Queues a plain message in the caller's transaction (the outbox sends it after the commit). */
  private mail(db: DbOrTrx, to: string, subject: string, lines: string[], tag: string) {
    return queueMail(db, { to, subject, text: lines.join('\n'), html: `<p>${lines.map(escapeHtml).join('<br>')}</p>` }, tag);
  }

  /** A token and the user for the right e-mail and password; null for an unknown e-mail or a wrong password alike. */
  async signIn(email: string, password: string): Promise<{ token: string; user: User } | null> {
    const user = await this.users.byEmail(email);
    // Verify against a dummy hash when the e-mail is unknown, so both answers take as long.
    const ok = await verifyPassword(password, user?.password_hash ?? DUMMY_HASH);
    if (!user || !ok) return null;
    const token = await this.tokens.issue(user.user_id);
    return { token, user: { id: user.user_id, email: user.email, name: user.name } };
  }

  /** Revokes each well-signed token given (a forged or expired one ends nothing). */
  async signOut(tokens: string[]): Promise<void> {
    const sessions = new SessionRepository(this.db);
    for (const token of new Set(tokens)) {
      const claims = await this.tokens.verify(token);
      if (claims) await sessions.revoke(claims.jti, claims.expiresAt);
    }
  }

  /** Creates the account, or, when the e-mail has one, tells its owner by e-mail; the caller answers the same either way. */
  async register(input: { email: string; password: string; name: string; newsletter?: boolean }, origin: string): Promise<void> {
    const email = input.email.trim().toLowerCase();
    const name = input.name.trim().replace(/\s+/g, ' ');
    const errors = validateProfile({ email, name, phone: '', company: null, newsletter: false });
    const messages = [errors.email, errors.name, checkPassword(input.password)].filter(Boolean);
    if (messages.length > 0) throw invalid(messages.join(' '));
    const passwordHash = await hashPassword(input.password);
    if (!(await this.users.emailTaken(email))) {
      try {
        await this.db.transaction().execute(async (trx) => {
          await new UserRepository(trx).insert({ email, name, passwordHash, newsletter: input.newsletter === true });
          await this.mail(
            trx,
            email,
            'Vitajte v obchode Stavebniny Domov',
            [
              `Dobrý deň, ${name},`,
              '',
              'váš zákaznícky účet je pripravený. Prihlásiť sa môžete tu:',
              `${origin}${shopPaths.signIn()}`,
              '',
              'Ak ste sa neregistrovali vy, napíšte nám odpoveďou na tento e-mail.',
            ],
            'registracia',
          );
        });
        return;
      } catch (error) {
        // Registered by a request at the same moment: the owner is told, as below.
        if (!isUniqueViolation(error)) throw error;
      }
    }
    await this.mail(
      this.db,
      email,
      'Pokus o registráciu v obchode Stavebniny Domov',
      [
        'Dobrý deň,',
        '',
        'niekto sa pokúsil zaregistrovať s vaším e-mailom, ku ktorému už účet máte.',
        `Ak ste to boli vy, prihláste sa (${origin}/account/login) alebo si nastavte nové heslo: ${origin}/account/password-reset`,
        '',
        'Ak nie, tento e-mail môžete ignorovať.',
      ],
      'registracia-existuje',
    );
  }

  /** A one-time link valid for an hour, when the e-mail has an account; nothing otherwise. */
  async requestReset(address: string, origin: string): Promise<void> {
    const user = await this.users.byEmail(address);
    if (!user) return;
    const token = randomBytes(32).toString('base64url');
    const now = Date.now();
    await this.db.transaction().execute(async (trx) => {
      await new LinkRepository(trx).addPasswordReset({
        tokenHash: sha256(token),
        userId: user.user_id,
        createdAt: new Date(now).toISOString(),
        expiresAt: new Date(now + RESET_TTL_MS).toISOString(),
      });
      await this.mail(
        trx,
        user.email,
        'Nové heslo do obchodu Stavebniny Domov',
        [
          'Dobrý deň,',
          '',
          'nové heslo si nastavíte na tomto odkaze (platí 1 hodinu a len raz):',
          `${origin}${shopPaths.passwordReset(token)}`,
          '',
          'Ak ste o nové heslo nežiadali, tento e-mail ignorujte; vaše heslo sa nezmení.',
        ],
        'nove-heslo',
      );
    });
  }

  /** Sets the new password once per link; ends every session of the account and its other reset links. */
  async confirmReset(token: string, password: string): Promise<void> {
    const problem = checkPassword(password);
    if (problem) throw invalid(problem);
    const now = new Date().toISOString();
    const hash = await hashPassword(password);
    await this.db.transaction().execute(async (trx) => {
      const links = new LinkRepository(trx);
      const userId = await links.claimPasswordReset(sha256(token), now);
      if (userId === undefined) throw new ApiError(400, 'bad_request', RESET_INVALID);
      await new UserRepository(trx).setPassword(userId, hash, now);
      await links.endPasswordResets(userId, now);
    });
  }

  async profile(userId: number): Promise<Profile> {
    const row = await this.users.profile(userId);
    if (!row) throw unauthorized('Prihláste sa, prosím.');
    const pendingEmail = await this.links.pendingEmail(userId, new Date().toISOString());
    return {
      id: row.user_id,
      email: row.email,
      name: row.name,
      phone: row.phone,
      company: row.company_json ? (JSON.parse(row.company_json) as CompanyData) : null,
      newsletter: row.newsletter === 1,
      createdAt: row.created_at,
      pendingEmail,
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
    const current = await this.users.credentials(userId);
    const emailChanges = email !== current.email;
    // Changing the e-mail needs the password.
    if (emailChanges && (!input.currentPassword || !(await verifyPassword(input.currentPassword, current.password_hash)))) {
      throw new ApiError(403, 'forbidden', 'Na zmenu e-mailu zadajte svoje súčasné heslo.');
    }
    const now = Date.now();
    await this.db.transaction().execute(async (trx) => {
      const users = new UserRepository(trx);
      const links = new LinkRepository(trx);
      await users.updateProfile(userId, {
        name: input.name.trim().replace(/\s+/g, ' '),
        phone: normalizeOptionalPhone(input.phone) ?? '',
        company_json: input.company ? JSON.stringify(normalizeCompany(input.company)) : null,
        newsletter: input.newsletter ? 1 : 0,
      });
      if (!emailChanges) return;
      // A newer request replaces an older one.
      await links.endEmailChanges(userId, new Date(now).toISOString());
      const token = randomBytes(32).toString('base64url');
      await links.addEmailChange({
        tokenHash: sha256(token),
        userId,
        newEmail: email,
        createdAt: new Date(now).toISOString(),
        expiresAt: new Date(now + EMAIL_CHANGE_TTL_MS).toISOString(),
      });
      if (await users.emailTaken(email)) {
        await this.mail(
          trx,
          email,
          'Pokus o zmenu e-mailu v obchode Stavebniny Domov',
          [
            'Dobrý deň,',
            '',
            'niekto sa pokúsil nastaviť vašu e-mailovú adresu inému zákazníckemu účtu. Váš účet s touto adresou zostáva nezmenený.',
            `Ak ste to boli vy, prihláste sa do svojho účtu: ${origin}/account/login`,
            '',
            'Ak nie, tento e-mail môžete ignorovať.',
          ],
          'zmena-emailu-obsadeny',
        );
      } else {
        await this.mail(
          trx,
          email,
          'Potvrďte nový e-mail v obchode Stavebniny Domov',
          [
            'Dobrý deň,',
            '',
            'potvrďte, prosím, že táto adresa má byť novým e-mailom vášho zákazníckeho účtu (odkaz platí 24 hodín):',
            `${origin}${shopPaths.profile(token)}`,
            '',
            'Kým zmenu nepotvrdíte, prihlasujete sa doterajším e-mailom. Ak ste o zmenu nežiadali, tento e-mail ignorujte.',
          ],
          'zmena-emailu',
        );
      }
    });
    return this.profile(userId);
  }

  /** Takes the new e-mail once per link; refused when the address has meanwhile got an account. */
  async confirmEmailChange(userId: number, token: string): Promise<Profile> {
    const now = new Date().toISOString();
    await this.db
      .transaction()
      .execute(async (trx) => {
        const newEmail = await new LinkRepository(trx).claimEmailChange(sha256(token), userId, now);
        if (newEmail === undefined) throw new ApiError(400, 'bad_request', EMAIL_CHANGE_INVALID);
        try {
          await new UserRepository(trx).setEmail(userId, newEmail);
        } catch (error) {
          if (isUniqueViolation(error)) throw new ApiError(409, 'conflict', EMAIL_TAKEN);
          throw error;
        }
      })
      .catch((error: unknown) => {
        // PostgreSQL aborts the transaction on the unique violation; the answer is the same.
        if (isUniqueViolation(error)) throw new ApiError(409, 'conflict', EMAIL_TAKEN);
        throw error;
      });
    return this.profile(userId);
  }

  /** Sets a new password, ends every session that began before, and answers a fresh token. */
  async changePassword(userId: number, currentPassword: string, newPassword: string): Promise<string> {
    const { password_hash } = await this.users.credentials(userId);
    if (!(await verifyPassword(currentPassword, password_hash))) throw new ApiError(403, 'forbidden', WRONG_PASSWORD);
    const problem = checkPassword(newPassword);
    if (problem) throw invalid(problem);
    await this.users.setPassword(userId, await hashPassword(newPassword), new Date().toISOString());
    // The new token's iat_ms is at or after sessions_valid_after, so it stays valid.
    return this.tokens.issue(userId);
  }

  /**
   * Deletes the account: name, e-mail, phone, company data, addresses, password resets and the
   * active coupon are erased; the user row stays as an anonymous stub so the orders (kept for the
   * accounting and warranty periods the law sets), complaints and withdrawals keep their link.
   */
  async deleteAccount(userId: number, password: string): Promise<void> {
    const { password_hash } = await this.users.credentials(userId);
    if (!(await verifyPassword(password, password_hash))) throw new ApiError(403, 'forbidden', WRONG_PASSWORD);
    const now = new Date().toISOString();
    const scrambled = await hashPassword(randomBytes(32).toString('base64url'));
    await this.db.transaction().execute(async (trx) => {
      await new AddressRepository(trx).deleteAll(userId);
      await new LinkRepository(trx).deletePasswordResets(userId);
      await new CouponRepository(trx).clearActive(userId);
      await new UserRepository(trx).anonymise(userId, scrambled, now);
    });
  }
}
