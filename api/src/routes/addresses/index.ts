/**
 * The signed-in shopper's billing and delivery addresses (issue 6) and the checkout prefill built
 * from them and the profile. Every query is scoped to the token's user: another customer's
 * address id answers 404, as if it did not exist.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { AccountCalls, Address, AddressInput, AddressKind, CheckoutContact, CompanyData } from '@shop/shared-kernel/contract';
import { normalizeZip, validateAddress } from '@shop/shared-kernel/rules';
import type { DbOrTrx } from '../../db/database.ts';
import { ApiError, notFound } from '../../lib/errors.ts';
import { requireUser } from '../account/require-user.ts';
import type { ApiDeps } from '../deps.ts';
import { ID_SCHEMA } from '../../lib/validation.ts';

type Acc<K extends keyof AccountCalls> = AccountCalls[K];
export const MAX_ADDRESSES = 20;
const NOT_FOUND = 'Adresa sa nenašla.';

const text = (max: number) => ({ type: 'string', maxLength: max }) as const;
const addressBody = {
  type: 'object',
  required: ['kind', 'name', 'street', 'city', 'zip', 'isDefault'],
  properties: {
    kind: { type: 'string', enum: ['billing', 'delivery'] },
    name: text(160),
    street: text(120),
    city: text(80),
    zip: text(12),
    isDefault: { type: 'boolean' },
  },
} as const;
const idParams = { type: 'object', required: ['id'], properties: { id: ID_SCHEMA } } as const;

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

function clean(input: AddressInput) {
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

const COLUMNS = ['address_id', 'kind', 'name', 'street', 'city', 'zip', 'is_default'] as const;

export async function listAddresses(db: DbOrTrx, userId: number): Promise<Address[]> {
  const rows = await db.selectFrom('addresses').select(COLUMNS).where('user_id', '=', userId).orderBy('kind').orderBy('is_default', 'desc').orderBy('address_id').execute();
  return rows.map(toAddress);
}

/** Makes one address the default of its kind (the others of that kind stop being it). */
async function makeDefault(db: DbOrTrx, userId: number, kind: string, addressId: number) {
  await db.updateTable('addresses').set({ is_default: 0 }).where('user_id', '=', userId).where('kind', '=', kind).where('address_id', '!=', addressId).execute();
  await db.updateTable('addresses').set({ is_default: 1 }).where('user_id', '=', userId).where('address_id', '=', addressId).execute();
}

/** When a kind has addresses but no default, its oldest becomes the default. */
async function ensureDefault(db: DbOrTrx, userId: number, kind: string) {
  const rows = await db.selectFrom('addresses').select(['address_id', 'is_default']).where('user_id', '=', userId).where('kind', '=', kind).orderBy('address_id').execute();
  if (rows.length > 0 && !rows.some((r) => r.is_default === 1)) await makeDefault(db, userId, kind, rows[0]!.address_id);
}

/** What the checkout's contact step starts from: the profile and the default addresses. */
export async function checkoutPrefill(db: DbOrTrx, userId: number): Promise<CheckoutContact> {
  const user = await db.selectFrom('users').select(['email', 'name', 'phone', 'company_json']).where('user_id', '=', userId).executeTakeFirstOrThrow();
  const addresses = await listAddresses(db, userId);
  const billing = addresses.find((a) => a.kind === 'billing' && a.isDefault);
  const delivery = addresses.find((a) => a.kind === 'delivery' && a.isDefault);
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

export const addressRoutes: FastifyPluginAsync<ApiDeps> = async (app, deps) => {
  const { db } = deps;

  app.get<{ Reply: Acc<'GET /api/account/addresses'>['answer'] }>('/account/addresses', async (request) => {
    const user = await requireUser(request, deps);
    return { data: await listAddresses(db, user.id) };
  });

  app.post<{ Body: AddressInput; Reply: Acc<'POST /api/account/addresses'>['answer'] }>(
    '/account/addresses',
    { schema: { body: addressBody } },
    async (request, reply) => {
      const user = await requireUser(request, deps);
      const values = clean(request.body);
      const now = new Date().toISOString();
      const address = await db.transaction().execute(async (trx) => {
        // Count and insert under the user's row lock: concurrent requests cannot pass the limit together.
        await trx.updateTable('users').set((eb) => ({ name: eb.ref('name') })).where('user_id', '=', user.id).execute();
        const count = await trx.selectFrom('addresses').select((eb) => eb.fn.countAll().as('n')).where('user_id', '=', user.id).executeTakeFirstOrThrow();
        if (Number(count.n) >= MAX_ADDRESSES) throw new ApiError(409, 'conflict', `Uložiť môžete najviac ${MAX_ADDRESSES} adries.`);
        const row = await trx.insertInto('addresses').values({ ...values, user_id: user.id, is_default: 0, created_at: now, updated_at: now }).returning('address_id').executeTakeFirstOrThrow();
        if (request.body.isDefault) await makeDefault(trx, user.id, values.kind, row.address_id);
        else await ensureDefault(trx, user.id, values.kind);
        return trx.selectFrom('addresses').select(COLUMNS).where('address_id', '=', row.address_id).executeTakeFirstOrThrow();
      });
      reply.status(201);
      return { data: toAddress(address) };
    },
  );

  app.put<{ Params: { id: number }; Body: AddressInput; Reply: Acc<'PUT /api/account/addresses/:id'>['answer'] }>(
    '/account/addresses/:id',
    { schema: { params: idParams, body: addressBody } },
    async (request) => {
      const user = await requireUser(request, deps);
      const values = clean(request.body);
      const address = await db.transaction().execute(async (trx) => {
        const existing = await trx.selectFrom('addresses').select(['address_id', 'kind']).where('address_id', '=', request.params.id).where('user_id', '=', user.id).executeTakeFirst();
        if (!existing) throw notFound(NOT_FOUND);
        await trx.updateTable('addresses').set({ ...values, updated_at: new Date().toISOString(), ...(values.kind !== existing.kind ? { is_default: 0 } : {}) })
          .where('address_id', '=', existing.address_id).where('user_id', '=', user.id).execute();
        if (request.body.isDefault) await makeDefault(trx, user.id, values.kind, existing.address_id);
        await ensureDefault(trx, user.id, existing.kind);
        await ensureDefault(trx, user.id, values.kind);
        return trx.selectFrom('addresses').select(COLUMNS).where('address_id', '=', existing.address_id).executeTakeFirstOrThrow();
      });
      return { data: toAddress(address) };
    },
  );

  app.delete<{ Params: { id: number }; Reply: Acc<'DELETE /api/account/addresses/:id'>['answer'] }>(
    '/account/addresses/:id',
    { schema: { params: idParams } },
    async (request) => {
      const user = await requireUser(request, deps);
      await db.transaction().execute(async (trx) => {
        const existing = await trx.selectFrom('addresses').select(['address_id', 'kind']).where('address_id', '=', request.params.id).where('user_id', '=', user.id).executeTakeFirst();
        if (!existing) throw notFound(NOT_FOUND);
        await trx.deleteFrom('addresses').where('address_id', '=', existing.address_id).where('user_id', '=', user.id).execute();
        await ensureDefault(trx, user.id, existing.kind);
      });
      return { data: { ok: true } };
    },
  );

  app.get<{ Reply: Acc<'GET /api/account/checkout-prefill'>['answer'] }>('/account/checkout-prefill', async (request) => {
    const user = await requireUser(request, deps);
    return { data: { contact: await checkoutPrefill(db, user.id) } };
  });
};
