/**
 * Feature switches per area (domains/releases/feature-flags.repository.ts, domains/ops/console/feature-flags.ts):
 * set on /ops by an operator or by the area's own team (another area's refused and audited), bounded
 * (name, share, switches per area, also under concurrent additions), every change audited with who
 * and before/after, and enforced where it matters to the shop: an order with card payment or a
 * pickup point is refused while the switch is off for the shopper's browser, and the checkout's quote
 * offers it as not available, saying why. On SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlaceOrderBody } from '@shop/shared-kernel/contract';
import { CHECKOUT_FLAGS, flagOn, MAX_FLAGS_PER_AREA, randomString } from '@shop/shared-kernel/rules';
import { createCredential } from '../../src/domains/releases/identities.repository.ts';
import { flagShares } from '../../src/domains/releases/feature-flags.repository.ts';
import { expectErrorShape, startTestApi, type TestApi } from '../helpers/test-api.ts';
import { testContact } from '../helpers/checkout-contact.ts';

let api: TestApi;
let checkoutTeam = '';
let variantId = 0;

beforeAll(async () => {
  api = await startTestApi();
  checkoutTeam = await createCredential(api.db, { name: 'ci-checkout-flags', area: 'checkout' });
  variantId = (
    await api.db
      .selectFrom('variants')
      .select('v_id')
      .where('v_availability', '=', 'in_stock')
      .where('v_stock', '>=', 20)
      .where('v_weight', '>', 0)
      .where('v_weight', '<=', 2_000)
      .orderBy('v_id')
      .executeTakeFirstOrThrow()
  ).v_id;
});
afterAll(async () => api?.close());

/** Sets a switch as the operator (default) or with a team's credential. */
const setFlag = (area: string, name: string, share: number, team?: string) =>
  team
    ? api.ops('POST', `/api/ops/flags/${area}/${name}`, { json: { share }, token: team })
    : api.asOperator('POST', `/api/ops/flags/${area}/${name}`, { share });

const newestAudit = async () => (await api.db.selectFrom('release_audit').selectAll().orderBy('audit_id', 'desc').limit(1).execute())[0]!;

/** Places an order from a browser of that bucket (its canary cookie), or one without a bucket yet. */
const order = (overrides: Partial<PlaceOrderBody>, bucket?: number) =>
  api.request('POST', '/api/orders', {
    json: {
      idempotencyKey: randomString(32),
      lines: [{ v_id: variantId, amount: 1 }],
      contact: testContact,
      shippingCode: 'courier',
      paymentCode: 'cod',
      couponCode: null,
      note: '',
      termsAccepted: true,
      ...overrides,
    },
    ...(bucket === undefined ? {} : { headers: { cookie: `shop_canary=${bucket}` } }),
  });

describe('feature switches on /ops', () => {
  it('are set by an operator, listed with who set them, and audited with before and after', async () => {
    const operator = await api.operator();
    const off = await setFlag('checkout', 'wishlist', 0);
    expect(off.status, off.text).toBe(200);
    expect(off.body.data).toEqual({ area: 'checkout', name: 'wishlist', before: null, after: 0 });
    expect(await newestAudit()).toMatchObject({
      actor: operator.name,
      action: 'flag',
      part: 'checkout',
      allowed: 1,
      detail: 'wishlist: nezadaný → vypnutý',
    });
    const half = await setFlag('checkout', 'wishlist', 50);
    expect(half.body.data).toEqual({ area: 'checkout', name: 'wishlist', before: 0, after: 50 });
    expect((await newestAudit()).detail).toBe('wishlist: vypnutý → 50 %');

    const listed = await api.asOperator('GET', '/api/ops/flags');
    expect(listed.status).toBe(200);
    expect(listed.body.data.maxPerArea).toBe(MAX_FLAGS_PER_AREA);
    expect(listed.body.data.flags).toContainEqual(
      expect.objectContaining({ area: 'checkout', name: 'wishlist', share: 50, updatedBy: operator.name }),
    );
    // The audit log the console shows names the operator.
    const audit = await api.asOperator('GET', '/api/ops/audit');
    expect(audit.body.data[0]).toMatchObject({ actor: operator.name, action: 'flag', part: 'checkout', allowed: true });
  });

  it('refuses a bad name, share or area with a Slovak message', async () => {
    for (const [area, name, share, status] of [
      ['checkout', 'Card', 0, 400],
      ['checkout', '1card', 0, 400],
      ['checkout', 'a'.repeat(41), 0, 400],
      ['checkout', 'ok', 101, 400],
      ['checkout', 'ok', -1, 400],
      ['checkout', 'ok', 1.5, 400],
      ['warehouse', 'ok', 0, 404],
    ] as const) {
      const answer = await setFlag(area, name, share);
      expect(answer.status, `${area}/${name} ${share}`).toBe(status);
      expect(answer.body.error.message).toMatch(/[áäčďéíĺľňóôŕšťúýž]/i);
    }
    expect((await flagShares(api.db)).checkout?.ok).toBeUndefined();
  });

  it("lets a team switch its own area's only: another's is refused and audited as refused", async () => {
    const own = await setFlag('checkout', 'gift-wrap', 0, checkoutTeam);
    expect(own.status, own.text).toBe(200);
    expect(await newestAudit()).toMatchObject({ actor: 'ci-checkout-flags', action: 'flag', part: 'checkout', allowed: 1 });

    const other = await setFlag('catalog', 'gift-wrap', 0, checkoutTeam);
    expect(other.status).toBe(403);
    expectErrorShape(other.body, 'forbidden');
    expect(await newestAudit()).toMatchObject({ actor: 'ci-checkout-flags', action: 'flag', part: 'catalog', allowed: 0 });
    expect((await flagShares(api.db)).catalog?.['gift-wrap']).toBeUndefined();
    // A team sees its own area's switches only.
    const seen = await api.ops('GET', '/api/ops/flags', { token: checkoutTeam });
    expect(seen.status).toBe(200);
    expect(new Set(seen.body.data.flags.map((flag: { area: string }) => flag.area))).toEqual(new Set(['checkout']));
    // No credential, no switch.
    expect((await api.ops('POST', '/api/ops/flags/checkout/gift-wrap', { json: { share: 100 } })).status).toBe(401);
  });

  it(`keeps at most ${MAX_FLAGS_PER_AREA} switches an area, also when new ones come at once`, async () => {
    const existing = Object.keys((await flagShares(api.db)).content ?? {}).length;
    for (let index = existing; index < MAX_FLAGS_PER_AREA - 1; index += 1) {
      expect((await setFlag('content', `switch-${index}`, 100)).status).toBe(200);
    }
    const racing = await Promise.all(Array.from({ length: 5 }, (_, index) => setFlag('content', `late-${index}`, 0)));
    expect(racing.map((answer) => answer.status).sort()).toEqual([200, 409, 409, 409, 409]);
    for (const refused of racing.filter((answer) => answer.status === 409)) expectErrorShape(refused.body, 'conflict');
    expect(Object.keys((await flagShares(api.db)).content ?? {})).toHaveLength(MAX_FLAGS_PER_AREA);
    // A switch the area has is still changed.
    expect((await setFlag('content', 'switch-0', 0)).status).toBe(200);
    expect(await newestAudit()).toMatchObject({ action: 'flag', part: 'content', allowed: 1, detail: 'switch-0: zapnutý → vypnutý' });
  });
});

describe('an order while a checkout switch is off', () => {
  it('is refused with card payment, and placed again once it is on', async () => {
    expect((await setFlag('checkout', CHECKOUT_FLAGS.cardPayment, 0)).status).toBe(200);
    const refused = await order({ paymentCode: 'card' }, 10);
    expect(refused.status).toBe(422);
    expectErrorShape(refused.body, 'validation_failed');
    expect(refused.body.error.message).toBe('Platba kartou je práve vypnutá. Vyberte, prosím, iný spôsob platby.');
    // The other methods still go.
    expect((await order({ paymentCode: 'cod' }, 10)).status).toBe(201);

    expect((await setFlag('checkout', CHECKOUT_FLAGS.cardPayment, 100)).status).toBe(200);
    expect((await order({ paymentCode: 'card' }, 10)).status).toBe(201);
  });

  it('is refused with a pickup point while that switch is off', async () => {
    const point = (await api.get('/api/pickup-points')).body.data[0].code as string;
    expect((await setFlag('checkout', CHECKOUT_FLAGS.pickupPoints, 0)).status).toBe(200);
    const refused = await order({ shippingCode: 'pickup-point', pickupPointCode: point });
    expect(refused.status).toBe(422);
    expect(refused.body.error.message).toBe('Doprava na výdajné miesto je práve vypnutá. Vyberte, prosím, iný spôsob dopravy.');
    expect((await setFlag('checkout', CHECKOUT_FLAGS.pickupPoints, 100)).status).toBe(200);
    expect((await order({ shippingCode: 'pickup-point', pickupPointCode: point })).status).toBe(201);
  });

  it('is decided by the browser’s bucket when the switch is on for a share', async () => {
    expect((await setFlag('checkout', CHECKOUT_FLAGS.cardPayment, 40)).status).toBe(200);
    const flags = await flagShares(api.db);
    const buckets = Array.from({ length: 100 }, (_, bucket) => bucket);
    const on = buckets.find((bucket) => flagOn(flags, 'checkout', CHECKOUT_FLAGS.cardPayment, bucket))!;
    const off = buckets.find((bucket) => !flagOn(flags, 'checkout', CHECKOUT_FLAGS.cardPayment, bucket))!;
    expect((await order({ paymentCode: 'card' }, on)).status).toBe(201);
    expect((await order({ paymentCode: 'card' }, off)).status).toBe(422);
    // A browser without a bucket yet counts only a switch fully on.
    expect((await order({ paymentCode: 'card' })).status).toBe(422);
    expect((await setFlag('checkout', CHECKOUT_FLAGS.cardPayment, 100)).status).toBe(200);
  });
});

describe('the checkout quote while a checkout switch is off', () => {
  /** The quote's methods for a browser of that bucket: code → why it is not available (null: it is). */
  const offered = async (bucket?: number) => {
    const answer = await api.request('POST', '/api/checkout/quote', {
      json: { lines: [{ v_id: variantId, amount: 1 }], shippingCode: 'courier', paymentCode: 'card' },
      ...(bucket === undefined ? {} : { headers: { cookie: `shop_canary=${bucket}` } }),
    });
    expect(answer.status).toBe(200);
    const { shipping, payment, paymentPrice } = answer.body.data as {
      shipping: { code: string; available: boolean; reason: string | null }[];
      payment: { code: string; available: boolean; reason: string | null }[];
      paymentPrice: number;
    };
    const reasons = (methods: typeof shipping) =>
      Object.fromEntries(methods.map((method) => [method.code, method.available ? null : method.reason]));
    return { shipping: reasons(shipping), payment: reasons(payment), paymentPrice };
  };

  it('offers card payment and the pickup point as not available, with the reason, and again once on', async () => {
    expect((await offered()).payment.card).toBeNull();
    expect((await setFlag('checkout', CHECKOUT_FLAGS.cardPayment, 0)).status).toBe(200);
    expect((await setFlag('checkout', CHECKOUT_FLAGS.pickupPoints, 0)).status).toBe(200);
    const off = await offered(10);
    expect(off.payment.card).toBe('Platba kartou je práve vypnutá.');
    expect(off.shipping['pickup-point']).toBe('Doprava na výdajné miesto je práve vypnutá.');
    // The other methods stay offered.
    expect(off.payment.cod).toBeNull();
    expect(off.shipping.courier).toBeNull();
    expect((await setFlag('checkout', CHECKOUT_FLAGS.cardPayment, 100)).status).toBe(200);
    expect((await setFlag('checkout', CHECKOUT_FLAGS.pickupPoints, 100)).status).toBe(200);
    const on = await offered(10);
    expect([on.payment.card, on.shipping['pickup-point']]).toEqual([null, null]);
  });

  it('follows the browser’s bucket when the switch is on for a share, as placing the order does', async () => {
    expect((await setFlag('checkout', CHECKOUT_FLAGS.cardPayment, 40)).status).toBe(200);
    const flags = await flagShares(api.db);
    const buckets = Array.from({ length: 100 }, (_, bucket) => bucket);
    const on = buckets.find((bucket) => flagOn(flags, 'checkout', CHECKOUT_FLAGS.cardPayment, bucket))!;
    const off = buckets.find((bucket) => !flagOn(flags, 'checkout', CHECKOUT_FLAGS.cardPayment, bucket))!;
    expect((await offered(on)).payment.card).toBeNull();
    expect((await offered(off)).payment.card).toBe('Platba kartou je práve vypnutá.');
    expect((await offered()).payment.card).toBe('Platba kartou je práve vypnutá.');
    expect((await setFlag('checkout', CHECKOUT_FLAGS.cardPayment, 100)).status).toBe(200);
  });
});
