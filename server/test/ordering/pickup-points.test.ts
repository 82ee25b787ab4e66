import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrderDetail, PickupPoint, PlaceOrderBody, PlacedOrder } from '@shop/shared-kernel/contract';
import { randomString } from '@shop/shared-kernel/rules';
import { startTestApi, type TestApi } from '../helpers/test-api.ts';
import { testContact } from '../helpers/checkout-contact.ts';

let api: TestApi;
let variantId: number;

beforeAll(async () => {
  api = await startTestApi();
  const light = await api.db
    .selectFrom('variants')
    .select('v_id')
    .where('v_availability', '=', 'in_stock')
    .where('v_stock', '>=', 5)
    .where('v_weight', '>', 0)
    .where('v_weight', '<=', 2_000)
    .orderBy('v_id')
    .executeTakeFirstOrThrow();
  variantId = light.v_id;
});
afterAll(async () => api?.close());

const points = (query = '') => api.get<{ data: PickupPoint[] }>(`/api/pickup-points${query}`);
const order = (overrides: Partial<PlaceOrderBody>) =>
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- success and error answers share one variable
  api.post<{ data: PlacedOrder; error?: any }>('/api/orders', {
    idempotencyKey: randomString(32),
    lines: [{ v_id: variantId, amount: 1 }],
    contact: testContact,
    shippingCode: 'pickup-point',
    paymentCode: 'cod',
    couponCode: null,
    note: '',
    termsAccepted: true,
    ...overrides,
  });

describe('pickup points (GET /api/pickup-points)', () => {
  it('are found by town or PSČ without diacritics or spaces, and nearest first from a position', async () => {
    const all = (await points()).body.data;
    expect(all.length).toBeGreaterThanOrEqual(15);
    expect(new Set(all.map((point) => point.city)).size).toBeGreaterThanOrEqual(12);
    for (const point of all)
      expect(point).toMatchObject({
        code: expect.any(String),
        street: expect.any(String),
        zip: expect.stringMatching(/^\d{5}$/),
        hours: expect.any(String),
        distanceKm: null,
      });

    const zilina = (await points('?q=zilina')).body.data;
    expect(zilina.map((point) => point.city)).toEqual(['Žilina', 'Žilina']);
    expect((await points(`?q=${encodeURIComponent('010 01')}`)).body.data.map((point) => point.code)).toEqual(['ZA-CEN']);
    expect((await points('?q=Atlantida')).body.data).toEqual([]);

    // From Košice's main square: the Košice points first, then Prešov.
    const near = (await points('?lat=48.7209&lon=21.2577')).body.data;
    expect(near.slice(0, 2).map((point) => point.city)).toEqual(['Košice', 'Košice']);
    expect(near[2]!.city).toBe('Prešov');
    expect(near[0]!.distanceKm).toBeLessThan(1);
    expect(near.map((point) => point.distanceKm)).toEqual([...near.map((point) => point.distanceKm)].sort((a, b) => a! - b!));
  });

  it('refuse what is out of bounds in the error shape', async () => {
    for (const query of [`?q=${'x'.repeat(61)}`, '?lat=48.7', '?lat=10&lon=21', '?lat=48&lon=abc']) {
      const answer = await points(query);
      expect(answer.status, query).toBe(400);
      expect(answer.body).toMatchObject({ error: { code: expect.any(String), message: expect.any(String) } });
    }
  });
});

describe('an order to a pickup point', () => {
  it('needs an active point, keeps it with the order, and shows it in the order, the e-mail and the invoice', async () => {
    const missing = await order({});
    expect(missing.status).toBe(422);
    expect(missing.body.error.message).toBe('Vyberte výdajné miesto, kde si balík vyzdvihnete.');
    expect((await order({ pickupPointCode: 'XX-NONE' })).status).toBe(422);

    const placed = await order({ pickupPointCode: 'MT-CEN' });
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    expect(placed.body.data.order.pickupPoint).toMatchObject({ code: 'MT-CEN', city: 'Martin', zip: '03601' });
    const read = await api.get<{ data: OrderDetail }>(`/api/orders/${placed.body.data.order.token}`);
    expect(read.body.data.pickupPoint?.name).toBe('Výdajné miesto Martin');
    await api.sideWorkDone();
    const outbox = join(api.dataDir, 'outbox');
    const mail = readdirSync(outbox).find((file) => readFileSync(join(outbox, file), 'utf8').includes(placed.body.data.order.number))!;
    // The text part, decoded from quoted-printable as a mail client does.
    const eml = readFileSync(join(outbox, mail), 'utf8').replace(/=\r?\n/g, '');
    const decoded = Buffer.from(
      eml.replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
      'latin1',
    ).toString('utf8');
    expect(decoded).toContain('Výdajné miesto: Výdajné miesto Martin, M. R. Štefánika 12, 036 01 Martin');

    // Another shipping keeps no point, whatever the body says.
    const courier = await order({ shippingCode: 'courier', pickupPointCode: 'MT-CEN' });
    expect(courier.status).toBe(201);
    expect(courier.body.data.order.pickupPoint).toBeNull();
  });
});

describe('the confirmation e-mail', () => {
  it('says "zadarmo" for free shipping and payment, as the site does, never "0 €"', async () => {
    const placed = await order({ shippingCode: 'pickup', paymentCode: 'transfer' });
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    await api.sideWorkDone();
    const outbox = join(api.dataDir, 'outbox');
    const file = readdirSync(outbox).find((name) => readFileSync(join(outbox, name), 'utf8').includes(placed.body.data.order.number))!;
    const eml = readFileSync(join(outbox, file), 'utf8').replace(/=\r?\n/g, '');
    const text = Buffer.from(
      eml.replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
      'latin1',
    ).toString('utf8');
    expect(text).toMatch(/Doprava: Osobný odber[^\n]*: zadarmo/);
    expect(text).toMatch(/Platba: Bankovým prevodom: zadarmo/);
    expect(text).not.toMatch(/prevodom: 0/);
    expect(text).toMatch(/IBAN: SK\d{2}( \d{4}){5}/);
  });
});
