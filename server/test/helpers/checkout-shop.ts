/**
 * The shop the checkout tests buy in (checkout-*.test.ts): the card gateway simulator, the API with
 * it as its gateway and mail written to its outbox directory, two signed-in seeded shoppers and six
 * light variants in stock; the order and quote calls as the checkout makes them. Test files share
 * their worker's modules, so each file makes its own: `checkoutShop()` at its top, `start()` before
 * its tests, `stop()` after them.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { CheckoutQuote, PlaceOrderBody, PlacedOrder } from '@shop/shared-kernel/contract';
import { randomString, unitPriceWithVat } from '@shop/shared-kernel/rules';
import { startGatewaySimulator, type GatewaySimulator } from '@shop/gateway-simulator';
import { DEFAULT_IBAN } from '../../src/infra/checkout-options.ts';
import { testContact } from './checkout-contact.ts';
import { startTestApi, type TestApi } from './test-api.ts';

/** A light variant in stock: its id, sell price, vat, sale, weight and stock. */
export type LightVariant = { v_id: number; v_sell_price: number; v_vat: number; v_sale: number; v_weight: number; v_stock: number };

/** The unit price with VAT the shop charges for `v`. */
export const unit = (v: LightVariant) => unitPriceWithVat({ v_sellPrice: v.v_sell_price, v_vat: v.v_vat, v_sale: v.v_sale });

export function checkoutShop() {
  const SECRET = randomBytes(16).toString('hex');
  let gateway: GatewaySimulator;
  let api: TestApi;
  let light: LightVariant[];

  async function start() {
    gateway = await startGatewaySimulator({ secret: SECRET });
    api = await startTestApi({
      checkout: (dataDir) => ({
        outboxDir: join(dataDir, 'outbox'),
        invoiceDir: join(dataDir, 'invoices'),
        smtpUrl: null,
        mailFrom: 'Stavebniny Domov <obchod@example.sk>',
        gateway: { url: gateway.url, secret: SECRET },
        publicUrl: 'http://shop.test',
        notifyUrl: null,
        iban: DEFAULT_IBAN,
      }),
    });
    const user = await api.login('zakaznik@example.sk', 'Heslo123!');
    const other = await api.login('maria.kovacova@example.sk', 'Heslo456!');
    light = await api.db
      .selectFrom('variants')
      .select(['v_id', 'v_sell_price', 'v_vat', 'v_sale', 'v_weight', 'v_stock'])
      .where('v_availability', '=', 'in_stock')
      .where('v_stock', '>=', 20)
      .where('v_weight', '<=', 2_000)
      .where('v_weight', '>', 0)
      .orderBy('v_id')
      .limit(6)
      .execute();
    expect(light.length).toBe(6);
    return { gateway, api, user, other, light };
  }

  async function stop() {
    await api?.close();
    await gateway?.close();
  }

  /** An order body: two of the first light variant, one of the second, by courier, cash on delivery. */
  function body(overrides: Partial<PlaceOrderBody> = {}): PlaceOrderBody {
    return {
      idempotencyKey: randomString(32),
      lines: [
        { v_id: light[0]!.v_id, amount: 2 },
        { v_id: light[1]!.v_id, amount: 1 },
      ],
      contact: testContact,
      shippingCode: 'courier',
      paymentCode: 'cod',
      couponCode: null,
      note: '',
      termsAccepted: true,
      ...overrides,
    };
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- success and error answers share one variable
  const place = (b: PlaceOrderBody, token?: string) => api.post<{ data: PlacedOrder; error?: any }>('/api/orders', b, token);
  const quote = (b: object, token?: string) => api.post<{ data: CheckoutQuote }>('/api/checkout/quote', b, token);
  const stockOf = async (v_id: number) =>
    (await api.db.selectFrom('variants').select('v_stock').where('v_id', '=', v_id).executeTakeFirstOrThrow()).v_stock;
  const orderCount = async () =>
    Number(
      (
        await api.db
          .selectFrom('orders')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  return { SECRET, start, stop, body, place, quote, stockOf, orderCount };
}
