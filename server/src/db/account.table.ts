import type { Generated, Insertable, Selectable } from 'kysely';

export interface UserTable extends UserProfileColumns {
  user_id: Generated<number>;
  /** Stored lower-case. */
  email: string;
  /** scrypt$N$r$p$salt$hash (see infra/pure/password.ts). */
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

// ---- account area ----

/** Columns the account area added to users (migration 2025-12-10). */
export interface UserProfileColumns {
  /** +421xxxxxxxxx or ''. */
  phone: Generated<string>;
  /** CompanyData as JSON, null for a private customer. */
  company_json: string | null;
  newsletter: Generated<number>;
  /** Set when the account was deleted (personal data anonymised, orders kept). */
  deleted_at: string | null;
  /** Tokens issued before this time are refused. */
  sessions_valid_after: string | null;
}

/** One-time password reset links: only the SHA-256 of the token is stored. */
export interface PasswordResetTable {
  token_hash: string;
  user_id: number;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface AddressTable {
  address_id: Generated<number>;
  user_id: number;
  /** billing | delivery */
  kind: string;
  name: string;
  street: string;
  city: string;
  zip: string;
  is_default: Generated<number>;
  created_at: string;
  updated_at: string;
}

export interface OrderStatusHistoryTable {
  history_id: Generated<number>;
  order_id: number;
  /** received | paid | shipped | delivered | cancelled | withdrawn */
  status: string;
  note: Generated<string>;
  /** operator | customer */
  actor: string;
  created_at: string;
}

export interface WithdrawalTable {
  withdrawal_id: Generated<number>;
  order_id: number;
  user_id: number | null;
  whole_order: number;
  refund: number;
  created_at: string;
}

export interface WithdrawalItemTable {
  withdrawal_id: number;
  item_id: number;
}

export interface ComplaintTable {
  complaint_id: Generated<number>;
  user_id: number | null;
  order_id: number;
  item_id: number;
  reason: string;
  description: string;
  state: string;
  resolution: Generated<string>;
  created_at: string;
  settle_by: string;
  updated_at: string;
}

export interface ComplaintPhotoTable {
  photo_id: Generated<number>;
  complaint_id: number;
  file_name: string;
  content_type: string;
  size: number;
  created_at: string;
}
