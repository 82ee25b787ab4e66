import type { Db, DialectName } from '../db/database.ts';
import type { TokenService } from './auth.ts';
import type { CheckoutOptions } from './checkout-options.ts';

/** What every route plugin gets as its options. */
export type ApiDeps = {
  db: Db;
  dialect: DialectName;
  tokens: TokenService;
};

/** The shop's settings beside the infrastructure: gateway, e-mail, public URL, bank account, operator token, folders. */
export type ShopDeps = ApiDeps & { checkout: CheckoutOptions };
