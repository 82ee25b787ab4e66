import type { Generated, Insertable, Selectable } from 'kysely';

export interface UserTable {
  user_id: Generated<number>;
  /** Stored lower-case. */
  email: string;
  /** scrypt$N$r$p$salt$hash (see lib/password.ts). */
  password_hash: string;
  name: string;
  created_at: string;
}

/** Tokens ended by logout before they expire (tokens are otherwise stateless). */
export interface RevokedTokenTable {
  jti: string;
  expires_at: string;
}

export type UserRow = Selectable<UserTable>;
export type NewUser = Insertable<UserTable>;
