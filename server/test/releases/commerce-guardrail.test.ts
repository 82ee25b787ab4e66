/**
 * The canary watch's commerce guardrail for the checkout (domains/releases/commerce-judge.ts), on
 * the registry in force (the shop's database; SQLite, and PostgreSQL with DATABASE_URL):
 * - an order records the checkout version its browser was served, decided by the server from the
 *   browser's canary bucket cookie and the registry, in the order's transaction; a field in the
 *   body naming another version changes nothing;
 * - the judge compares orders per order-step visit (telemetry sessions that showed /checkout/order)
 *   of the canary against the stable version: too few visits, no verdict (a staged canary is not
 *   moved on); a halved rate, an abort by the real watch naming both figures in the history; equal
 *   rates, healthy (the stage moves on).
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewaySimulator, type GatewaySimulator } from '@shop/gateway-simulator';
import { finishCanary, type DeployMode } from '@shop/release';
import type { TelemetryEvent } from '@shop/shared-kernel/contract';
import { randomString } from '@shop/shared-kernel/rules';
import { recordSession } from '../../src/domains/ops/telemetry/client-sessions.repository.ts';
import { cardPaymentJudge } from '../../src/domains/releases/card-payment-judge.ts';
import { DEFAULT_COMMERCE_POLICY, orderPlacementJudge, type CommercePolicy } from '../../src/domains/releases/commerce-judge.ts';
import type { TrustedRegistry } from '../../src/domains/releases/registry.repository.ts';
import { defaultCheckoutOptions } from '../../src/infra/checkout-options.ts';
import { courierOrder } from '../helpers/checkout-contact.ts';
import { canaryScrape as scrapeCanaries, checkOnce as checkWatchOnce } from '../helpers/commerce-watch.ts';
import { signedShop } from '../helpers/signed-shop.ts';
import { stockedLightVariants } from '../helpers/stocked-variants.ts';
import type { TestApi } from '../helpers/test-api.ts';

const GATEWAY_SECRET = randomBytes(16).toString('hex');
let gateway: GatewaySimulator;
// The card gateway simulator: card payments end as a shopper ends them on its page (paid or cancelled).
const shop = signedShop({
  registryInDatabase: true,
  checkout: (dataDir) => ({ ...defaultCheckoutOptions(dataDir), gateway: { url: gateway.url, secret: GATEWAY_SECRET } }),
});
const { storage, release, inForce } = shop;
let api: TestApi;
let book: TrustedRegistry;
let variantId = 0;
/** A variant with one piece left: an order of two is refused after the order's row was written. */
let lastPieceId = 0;

beforeAll(async () => {
  gateway = await startGatewaySimulator({ secret: GATEWAY_SECRET });
  ({ api, book } = await shop.start());
  [variantId, lastPieceId] = (await stockedLightVariants(api.db, 2)) as [number, number];
  await api.db.updateTable('variants').set({ v_stock: 1 }).where('v_id', '=', lastPieceId).execute();
});
afterAll(async () => {
  await shop.stop();
  await gateway?.close();
});

const SHARE = 50;
/** Buckets on each side of the canary's share. */
const CANARY_BUCKET = 10;
const STABLE_BUCKET = 90;
const COMMERCE: CommercePolicy = {
  ...DEFAULT_COMMERCE_POLICY,
  minOrderVisits: 8,
  orderDrop: 0.3,
  minCardPayments: 4,
  cardFailureRise: 0.1,
};
const STAGE_MS = 60_000;
const ramp: DeployMode = { kind: 'canary', share: SHARE, stages: [SHARE, 75], stageMs: STAGE_MS, autoPromote: false };

/** Places an order from a browser of that bucket (its canary cookie, or the cookie's raw value; null: a browser without one); answers the versions recorded for it. */
async function placeOrder(bucket: number | string | null, extra: Record<string, unknown> = {}) {
  const placed = await api.request('POST', '/api/orders', {
    json: { ...courierOrder(variantId), ...extra },
    ...(bucket === null ? {} : { headers: { cookie: `shop_canary=${bucket}` } }),
  });
  expect(placed.status, placed.text).toBe(201);
  const order = await api.db
    .selectFrom('orders')
    .select('order_id')
    .where('order_token', '=', placed.body.data.order.token)
    .executeTakeFirstOrThrow();
  const recorded = await api.db.selectFrom('order_versions').selectAll().where('order_id', '=', order.order_id).execute();
  return recorded.map((row) => [row.part, row.version]);
}

/** `count` telemetry sessions, each showing the checkout's order step of `version` (as POST /api/telemetry records them). */
async function orderStepVisits(version: string, count: number) {
  const events: TelemetryEvent[] = [
    { type: 'view', area: 'checkout', version, route: 'checkout-cart' },
    { type: 'view', area: 'checkout', version, route: 'checkout-order' },
    // A page repeating its report counts once.
    { type: 'view', area: 'checkout', version, route: 'checkout-order' },
  ];
  for (let i = 0; i < count; i += 1) await recordSession(api.db, randomString(22), events, new Date());
}

/** `orders` orders from browsers on the canary's side (`canary`) or the stable one's. */
async function orders(side: 'canary' | 'stable', count: number) {
  for (let i = 0; i < count; i += 1) await placeOrder(side === 'canary' ? CANARY_BUCKET : STABLE_BUCKET);
}

/** One check of the real watch, the error rates healthy: the areas it aborted (the orders judge unless others are given). */
const checkOnce = (stable: string, canary: string, judges = [orderPlacementJudge(api.db, COMMERCE)]) =>
  checkWatchOnce({ storage, book, stageMs: STAGE_MS }, { stable, canary }, judges);
const canaryScrape = () => scrapeCanaries(book);

const canaryNow = async () => (await book.read()).canaries?.checkout;
const abortCanary = () => finishCanary({ storage, book, area: 'checkout', outcome: 'abort', provenance: { who: 'test' } });

describe('an order’s checkout version', () => {
  it('is the one the server served its browser: the canary under the share, else the stable one; never the body’s', async () => {
    const stable = await inForce();
    expect(await placeOrder(CANARY_BUCKET)).toEqual([['checkout', stable]]);
    const canary = (await release('attribution', { mode: { kind: 'canary', share: SHARE } })).version;
    try {
      expect(await placeOrder(CANARY_BUCKET)).toEqual([['checkout', canary]]);
      expect(await placeOrder(STABLE_BUCKET)).toEqual([['checkout', stable]]);
      // No bucket yet, or one no browser of the shop has: served the version in force.
      expect(await placeOrder(null)).toEqual([['checkout', stable]]);
      expect(await placeOrder('7x')).toEqual([['checkout', stable]]);
      // A body naming a version (or a bucket) is not heard.
      expect(await placeOrder(STABLE_BUCKET, { checkoutVersion: canary, version: canary, bucket: CANARY_BUCKET })).toEqual([
        ['checkout', stable],
      ]);
      expect(await placeOrder(CANARY_BUCKET, { checkoutVersion: stable, version: stable, bucket: STABLE_BUCKET })).toEqual([
        ['checkout', canary],
      ]);
    } finally {
      await abortCanary();
    }
  });

  it('is recorded with its order only: an order refused for its stock records none', async () => {
    const recorded = async () =>
      Number(
        (
          await api.db
            .selectFrom('order_versions')
            .select((eb) => eb.fn.countAll<number | string>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await recorded();
    const refused = await api.request('POST', '/api/orders', {
      json: courierOrder(lastPieceId, 2),
      headers: { cookie: `shop_canary=${CANARY_BUCKET}` },
    });
    expect(refused.status, refused.text).toBe(409);
    expect(await recorded()).toBe(before);
  });
});

describe('the commerce guardrail on a checkout canary', () => {
  it('gives no verdict on too few order-step visits: a staged canary is not moved on', async () => {
    const stable = await inForce();
    const canary = (await release('few-visits', { mode: ramp })).version;
    const since = new Date((await canaryNow())!.since);
    try {
      await orderStepVisits(canary, COMMERCE.minOrderVisits - 1);
      await orderStepVisits(stable, COMMERCE.minOrderVisits);
      await orders('stable', 2);
      const judge = orderPlacementJudge(api.db, COMMERCE);
      const verdict = await judge.judge({ area: 'checkout', canary, stable, since });
      expect(verdict).toEqual({
        verdict: 'unknown',
        figures:
          'objednávky na návštevu kroku objednávky: málo údajov (kanárik 0/7 (0 %), stabilná 2/8 (25 %); treba aspoň 8 návštev na každej strane)',
      });
      expect(await checkOnce(stable, canary)).toEqual([]);
      expect(await canaryNow()).toMatchObject({ version: canary, share: SHARE, stages: { index: 0 } });
    } finally {
      await abortCanary();
    }
  });

  it('aborts a canary whose orders per visit halved, the history naming both figures', async () => {
    const stable = await inForce();
    const canary = (await release('halved', { mode: ramp })).version;
    await orderStepVisits(canary, 8);
    await orderStepVisits(stable, 8);
    await orders('canary', 4);
    await orders('stable', 8);
    expect(await checkOnce(stable, canary)).toEqual(['checkout']);
    expect(await canaryNow()).toBeUndefined();
    expect(await inForce()).toBe(stable);
    const last = (await book.history()).at(-1)!;
    expect(last).toMatchObject({ action: 'abort', who: 'canary-watch', from: canary, to: stable });
    expect(last.reason).toBe(
      'automatické zrušenie (objednávky na návštevu kroku objednávky (pokladňa)): objednávky na návštevu kroku objednávky: kanárik 4/8 (50 %), stabilná 8/8 (100 %); menej o 50 %, povolený pokles 30 %',
    );
    // Counted as the commerce guardrail's abort, not as one for errors.
    expect(await canaryScrape()).toContain('shop_canary_aborts_total{area="checkout",reason="commerce"} 1');
  });

  it('holds a canary whose orders per visit equal the stable one’s: healthy, the stage moves on', async () => {
    const stable = await inForce();
    const canary = (await release('equal', { mode: ramp })).version;
    const since = new Date((await canaryNow())!.since);
    try {
      await orderStepVisits(canary, 8);
      await orderStepVisits(stable, 8);
      await orders('canary', 4);
      await orders('stable', 4);
      const verdict = await orderPlacementJudge(api.db, COMMERCE).judge({ area: 'checkout', canary, stable, since });
      expect(verdict).toEqual({
        verdict: 'healthy',
        figures: 'objednávky na návštevu kroku objednávky: kanárik 4/8 (50 %), stabilná 4/8 (50 %); povolený pokles 30 %',
      });
      expect(await checkOnce(stable, canary)).toEqual([]);
      expect(await canaryNow()).toMatchObject({ version: canary, share: 75, stages: { index: 1 } });
      const advance = (await book.history()).at(-1)!;
      expect(advance).toMatchObject({ action: 'advance', to: canary });
      expect(advance.reason).toContain('objednávky na návštevu kroku objednávky: kanárik 4/8 (50 %), stabilná 4/8 (50 %)');
      expect(await canaryScrape()).toMatch(/^shop_canary_stage_advances_total\{area="checkout"\} [1-9]\d*$/m);
    } finally {
      await abortCanary();
    }
  });
});

/** A card order from a browser of that bucket; `end`: the shopper pays or cancels on the gateway's page, or leaves it pending. */
async function cardOrder(bucket: number, end: 'pay' | 'cancel' | 'pending') {
  const placed = await api.request('POST', '/api/orders', {
    json: { ...courierOrder(variantId), paymentCode: 'card' },
    headers: { cookie: `shop_canary=${bucket}` },
  });
  expect(placed.status, placed.text).toBe(201);
  if (end === 'pending') return;
  // The simulator notifies the shop (signed) before it sends the shopper back.
  const ended = await fetch(`${placed.body.data.redirectUrl}/${end}`, { method: 'POST', redirect: 'manual' });
  expect(ended.status).toBe(303);
}

describe('the card payment guardrail on a checkout canary', () => {
  it('gives no verdict while either side has too few ended payments (pending ones do not count), which holds nothing: the stage moves on', async () => {
    const stable = await inForce();
    const canary = (await release('card-few', { mode: ramp })).version;
    const since = new Date((await canaryNow())!.since);
    try {
      for (let i = 0; i < 4; i += 1) await cardOrder(CANARY_BUCKET, 'pending');
      for (let i = 0; i < 4; i += 1) await cardOrder(STABLE_BUCKET, 'pay');
      await cardOrder(CANARY_BUCKET, 'cancel');
      expect(await cardPaymentJudge(api.db, COMMERCE).judge({ area: 'checkout', canary, stable, since })).toEqual({
        verdict: 'unknown',
        figures:
          'neúspešné platby kartou: málo údajov (kanárik 1/1 (100 %), stabilná 0/4 (0 %); treba aspoň 4 ukončených platieb na každej strane)',
      });
      // Unlike orders per visit: many good canaries never see enough card payments.
      expect(await checkOnce(stable, canary, [cardPaymentJudge(api.db, COMMERCE)])).toEqual([]);
      expect(await canaryNow()).toMatchObject({ version: canary, share: 75, stages: { index: 1 } });
    } finally {
      await abortCanary();
    }
  });

  it('aborts a canary whose card payments fail more often, the history naming both figures', async () => {
    const stable = await inForce();
    const canary = (await release('card-failing', { mode: ramp })).version;
    for (const end of ['cancel', 'cancel', 'cancel', 'pay'] as const) await cardOrder(CANARY_BUCKET, end);
    for (const end of ['pay', 'pay', 'pay', 'cancel'] as const) await cardOrder(STABLE_BUCKET, end);
    expect(await checkOnce(stable, canary, [cardPaymentJudge(api.db, COMMERCE)])).toEqual(['checkout']);
    expect(await inForce()).toBe(stable);
    const last = (await book.history()).at(-1)!;
    expect(last).toMatchObject({ action: 'abort', who: 'canary-watch', from: canary, to: stable });
    expect(last.reason).toBe(
      'automatické zrušenie (neúspešné platby kartou (pokladňa)): neúspešné platby kartou: kanárik 3/4 (75 %), stabilná 1/4 (25 %); viac o 50 bodov, povolený nárast 10 bodov',
    );
  });

  it('holds a canary whose card payments fail as often as the stable one’s: healthy', async () => {
    const stable = await inForce();
    const canary = (await release('card-equal', { mode: ramp })).version;
    const since = new Date((await canaryNow())!.since);
    try {
      for (const side of [CANARY_BUCKET, STABLE_BUCKET]) {
        for (const end of ['pay', 'pay', 'pay', 'cancel'] as const) await cardOrder(side, end);
      }
      expect(await cardPaymentJudge(api.db, COMMERCE).judge({ area: 'checkout', canary, stable, since })).toEqual({
        verdict: 'healthy',
        figures: 'neúspešné platby kartou: kanárik 1/4 (25 %), stabilná 1/4 (25 %); povolený nárast 10 bodov',
      });
    } finally {
      await abortCanary();
    }
  });
});
