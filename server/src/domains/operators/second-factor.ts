/**
 * The operators' second factor: TOTP (RFC 6238: SHA-1, 6 digits, 30 s, as every authenticator app
 * reads it) with the `otpauth` library, and the one-time recovery codes. Pure: what is kept and
 * when a code was taken is the repository's (operator-accounts.repository.ts).
 */
import { createHash, randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';

/** The issuer the authenticator app shows beside the operator's name. */
export const TOTP_ISSUER = 'Stavebniny Domov – prevádzka';
const PERIOD_SECONDS = 30;
/** A code of the step before or after is taken too (a phone's clock a little off, a code typed as it changed). */
const WINDOW = 1;
/** Recovery codes given at the set-up; each works once. */
export const RECOVERY_CODES = 10;

const totp = (name: string, secret: string) =>
  new TOTP({ issuer: TOTP_ISSUER, label: name, algorithm: 'SHA1', digits: 6, period: PERIOD_SECONDS, secret: Secret.fromBase32(secret) });

/** A new secret (160 random bits, base32) and the `otpauth://` address the QR code carries. */
export function newTotpSecret(name: string): { secret: string; uri: string } {
  const secret = new Secret({ size: 20 }).base32;
  return { secret, uri: totp(name, secret).toString() };
}

/**
 * The time step a code is valid for at `now`, or null when it is not one of the window's codes. A code
 * is taken once: the caller accepts it only for a step after the last one taken.
 */
export function totpStep(secret: string, code: string, now: Date): number | null {
  if (!/^[0-9]{6}$/.test(code)) return null;
  const delta = totp('operator', secret).validate({ token: code, timestamp: now.getTime(), window: WINDOW });
  return delta === null ? null : Math.floor(now.getTime() / 1000 / PERIOD_SECONDS) + delta;
}

/** The code of `secret` at `at` (the tests and the e2e helper type what an app would show). */
export function totpCode(secret: string, at: Date): string {
  return totp('operator', secret).generate({ timestamp: at.getTime() });
}

const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** Ten codes of ten characters (`xxxxx-xxxxx`, about 49 bits each), shown once. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODES }, () => {
    const bytes = randomBytes(10);
    const chars = [...bytes].map((byte) => RECOVERY_ALPHABET[byte % RECOVERY_ALPHABET.length]!).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/** A recovery code as typed (any case, spaces, a dash or none) to the form its hash is kept of; null when it cannot be one. */
export function normalizedRecoveryCode(given: string): string | null {
  const bare = given.toLowerCase().replace(/[\s-]/g, '');
  return /^[a-z0-9]{10}$/.test(bare) ? bare : null;
}

export const recoveryCodeHash = (normalized: string) => createHash('sha256').update(`recovery:${normalized}`).digest('hex');
