import type { AddressKind } from '@shop/shared-kernel/contract';
import type { DbOrTrx } from '../../../db/database.ts';

const COLUMNS = ['address_id', 'kind', 'name', 'street', 'city', 'zip', 'is_default'] as const;

/** An address as the shopper enters it, cleaned (the default flag is set on its own). */
export type AddressValues = { kind: AddressKind; name: string; street: string; city: string; zip: string };

/** The shopper's addresses; every query is scoped to the user. */
export class AddressRepository {
  constructor(private readonly db: DbOrTrx) {}

  /** Billing first, the default of each kind first, then oldest first. */
  list(userId: number) {
    return this.db
      .selectFrom('addresses')
      .select(COLUMNS)
      .where('user_id', '=', userId)
      .orderBy('kind')
      .orderBy('is_default', 'desc')
      .orderBy('address_id')
      .execute();
  }

  one(userId: number, addressId: number) {
    return this.db
      .selectFrom('addresses')
      .select(COLUMNS)
      .where('address_id', '=', addressId)
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
  }

  /** The id and kind of one of the user's addresses, undefined when the user has no such address. */
  find(userId: number, addressId: number) {
    return this.db
      .selectFrom('addresses')
      .select(['address_id', 'kind'])
      .where('address_id', '=', addressId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
  }

  /**
   * Locks the user's row until the transaction ends (an update that changes nothing), so two
   * requests of the same user that count and then insert addresses run one after the other.
   */
  async lockOwner(userId: number): Promise<void> {
    await this.db
      .updateTable('users')
      .set((eb) => ({ name: eb.ref('name') }))
      .where('user_id', '=', userId)
      .execute();
  }

  async count(userId: number): Promise<number> {
    const row = await this.db
      .selectFrom('addresses')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** A new address, not the default (see makeDefault); its id. */
  async insert(userId: number, values: AddressValues, now: string): Promise<number> {
    const row = await this.db
      .insertInto('addresses')
      .values({ ...values, user_id: userId, is_default: 0, created_at: now, updated_at: now })
      .returning('address_id')
      .executeTakeFirstOrThrow();
    return row.address_id;
  }

  /** Saves an address; one moved to the other kind stops being a default. */
  async update(userId: number, addressId: number, values: AddressValues, kindChanged: boolean, now: string): Promise<void> {
    await this.db
      .updateTable('addresses')
      .set({ ...values, updated_at: now, ...(kindChanged ? { is_default: 0 } : {}) })
      .where('address_id', '=', addressId)
      .where('user_id', '=', userId)
      .execute();
  }

  async delete(userId: number, addressId: number): Promise<void> {
    await this.db.deleteFrom('addresses').where('address_id', '=', addressId).where('user_id', '=', userId).execute();
  }

  async deleteAll(userId: number): Promise<void> {
    await this.db.deleteFrom('addresses').where('user_id', '=', userId).execute();
  }

  /** The user's addresses of one kind, oldest first, with their default flags. */
  ofKind(userId: number, kind: string) {
    return this.db
      .selectFrom('addresses')
      .select(['address_id', 'is_default'])
      .where('user_id', '=', userId)
      .where('kind', '=', kind)
      .orderBy('address_id')
      .execute();
  }

  /** Makes one address the default of its kind (the others of that kind stop being it). */
  async makeDefault(userId: number, kind: string, addressId: number): Promise<void> {
    await this.db
      .updateTable('addresses')
      .set({ is_default: 0 })
      .where('user_id', '=', userId)
      .where('kind', '=', kind)
      .where('address_id', '!=', addressId)
      .execute();
    await this.db
      .updateTable('addresses')
      .set({ is_default: 1 })
      .where('user_id', '=', userId)
      .where('address_id', '=', addressId)
      .execute();
  }
}
