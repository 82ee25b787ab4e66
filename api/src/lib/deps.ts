import type { Db, DialectName } from '../db/database.ts';
import type { TokenService } from '../lib/auth.ts';

/** What every route plugin gets as its options. */
export type ApiDeps = {
  db: Db;
  dialect: DialectName;
  tokens: TokenService;
};
