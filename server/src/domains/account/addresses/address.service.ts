/**
 * The rules of the shopper's addresses: the kernel's checks and clean-up of what is typed, at most
 * MAX_ADDRESSES per account, one default per kind (a kind with addresses always has one), and the
 * checkout prefill made of the profile and the default addresses.
 */
import type { Address, AddressInput, AddressKind, CheckoutContact, CompanyData } from '@shop/shared-kernel/contract';
import { normalizeZip, validateAddress } from '@shop/shared-kernel/rules';
import type { Db } from '../../../db/database.ts';
import { ApiError, notFound } from '../../../infra/http/errors.ts';
import { UserRepository } from '../users/user.repository.ts';
import { AddressRepository, type AddressValues } from './address.repository.ts';

export const MAX_ADDRESSES = 20;
const NOT_FOUND = 'Adresa sa nenašla.';

type Row = { address_id: number; kind: string; name: string; street: string; city: string; zip: string; is_default: number };
const toAddress = (r: Row): Address => ({
  id: r.address_id,
  kind: r.kind as AddressKind,
  name: r.name,
  street: r.street,
  city: r.city,
  zip: r.zip,
  isDefault: r.is_default === 1,
});

/** The address as it is stored, or 422 with the kernel's messages. */
function clean(input: AddressInput): AddressValues {
  const errors = validateAddress(input);
  const messages = [...new Set(Object.values(errors))];
  if (messages.length > 0) throw new ApiError(422, 'validation_failed', messages.join(' '));
  return {
    kind: input.kind,
    name: input.name.trim().replace(/\s+/g, ' '),
    street: input.street.trim(),
    city: input.city.trim(),
    zip: normalizeZip(input.zip) ?? input.zip.trim(),
  };
}

/** When a kind has addresses but no default, its oldest becomes the default. */
async function ensureDefault(addresses: AddressRepository, userId: number, kind: string) {
  const rows = await addresses.ofKind(userId, kind);
  if (rows.length > 0 && !rows.some((r) => r.is_default === 1)) await addresses.makeDefault(userId, kind, rows[0]!.address_id);
}

/** Every call is scoped to the user: another customer's address id answers 404, as if it did not exist. */
export class AddressService {
  constructor(private readonly db: Db) {}

  async list(userId: number): Promise<Address[]> {
    return (await new AddressRepository(this.db).list(userId)).map(toAddress);
  }

  async create(userId: number, input: AddressInput): Promise<Address> {
    const values = clean(input);
    const row = await this.db.transaction().execute(async (trx) => {
      const addresses = new AddressRepository(trx);
      // Count and insert under the user's row lock: concurrent requests cannot pass the limit together.
      await addresses.lockOwner(userId);
      if ((await addresses.count(userId)) >= MAX_ADDRESSES)
        throw new ApiError(409, 'conflict', `Uložiť môžete najviac ${MAX_ADDRESSES} adries.`);
      const id = await addresses.insert(userId, values, new Date().toISOString());
      if (input.isDefault) await addresses.makeDefault(userId, values.kind, id);
      else await ensureDefault(addresses, userId, values.kind);
      return addresses.one(userId, id);
    });
    return toAddress(row);
  }

  async update(userId: number, addressId: number, input: AddressInput): Promise<Address> {
    const values = clean(input);
    const row = await this.db.transaction().execute(async (trx) => {
      const addresses = new AddressRepository(trx);
      // Under the user's row lock as every change of the addresses: the default of each kind stays one.
      await addresses.lockOwner(userId);
      const existing = await addresses.find(userId, addressId);
      if (!existing) throw notFound(NOT_FOUND);
      await addresses.update(userId, existing.address_id, values, values.kind !== existing.kind, new Date().toISOString());
      if (input.isDefault) await addresses.makeDefault(userId, values.kind, existing.address_id);
      await ensureDefault(addresses, userId, existing.kind);
      await ensureDefault(addresses, userId, values.kind);
      return addresses.one(userId, existing.address_id);
    });
    return toAddress(row);
  }

  async remove(userId: number, addressId: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const addresses = new AddressRepository(trx);
      await addresses.lockOwner(userId);
      const existing = await addresses.find(userId, addressId);
      if (!existing) throw notFound(NOT_FOUND);
      await addresses.delete(userId, existing.address_id);
      await ensureDefault(addresses, userId, existing.kind);
    });
  }

  /** What the checkout's contact step starts from: the profile and the default addresses. */
  async checkoutPrefill(userId: number): Promise<CheckoutContact> {
    const user = await new UserRepository(this.db).profile(userId);
    if (!user) throw notFound('Účet sa nenašiel.');
    const addresses = await new AddressRepository(this.db).list(userId);
    const billing = addresses.find((a) => a.kind === 'billing' && a.is_default === 1);
    const delivery = addresses.find((a) => a.kind === 'delivery' && a.is_default === 1);
    const company = user.company_json ? (JSON.parse(user.company_json) as CompanyData) : null;
    return {
      email: user.email,
      phone: user.phone,
      name: user.name,
      billing: billing ? { street: billing.street, city: billing.city, zip: billing.zip } : { street: '', city: '', zip: '' },
      company,
      delivery: delivery ? { name: delivery.name, street: delivery.street, city: delivery.city, zip: delivery.zip } : null,
    };
  }
}
