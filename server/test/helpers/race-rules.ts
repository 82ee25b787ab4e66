/**
 * Every check-then-write rule of the shop, fired with concurrent requests over HTTP alone, so the
 * same rules run against one API on SQLite and on PostgreSQL (test/platform/races.test.ts) and against the
 * cluster through nginx (test-cluster/races.test.ts). Under read committed two transactions both
 * pass a check made before either writes: each rule here holds only through its lock, unique
 * constraint or conditional write.
 *
 * A target gives the address to send the requests to and the few things HTTP cannot set up: a
 * coupon with a use limit, a variant's stock, and variants to order.
 */
import { expect } from 'vitest';
import type { PlaceOrderBody } from '@shop/shared-kernel/contract';
import { randomString } from '@shop/shared-kernel/rules';
import { courierOrder } from './checkout-contact.ts';

export type RaceTarget = {
  /** Where every request goes (one API, or nginx in front of the cluster). */
  url: string;
  /** The operator origin and a signed-in operator's Cookie header there (the operator's order moves). */
  operator: { url: string; cookie: string };
  /** Variants sold to order (no stock to run out), light enough for the courier. */
  variants: () => Promise<number[]>;
  /** A variant in stock that no other test orders. */
  inStockVariant: () => Promise<number>;
  setStock: (vId: number, stock: number) => Promise<void>;
  /** How many accounts have this e-mail. */
  accounts: (email: string) => Promise<number>;
  addCoupon: (coupon: { code: string; percent: number; maxUses: number | null; oncePerCustomer: boolean }) => Promise<void>;
};

export type RaceRule = { name: string; run: (target: RaceTarget) => Promise<void> };

type Answer = { status: number; body: unknown };

async function call(
  target: RaceTarget,
  method: string,
  path: string,
  init: { body?: unknown; token?: string; operator?: boolean } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  if (init.operator) Object.assign(headers, { cookie: target.operator.cookie, origin: new URL(target.operator.url).origin });
  const res = await fetch(`${init.operator ? target.operator.url : target.url}${path}`, {
    method,
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: kept as text, and the error-shape check below fails on it.
  }
  return { status: res.status, body };
}

/** Every refusal is a 4xx in the one error shape: a race never surfaces as a 5xx. */
function expectRefusal(answer: Answer, status: number) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  const error = (answer.body as { error?: { code?: unknown; message?: unknown } }).error;
  expect(typeof error?.code).toBe('string');
  expect(typeof error?.message).toBe('string');
}

const at = <T>(body: unknown, key: string) => (body as Record<string, T>)[key] as T;

async function newCustomer(target: RaceTarget, password = 'Heslo123!'): Promise<string> {
  const email = `preteky-${randomString(10).toLowerCase()}@example.sk`;
  expect((await call(target, 'POST', '/api/account/register', { body: { email, password, name: 'Rita Súbežná' } })).status).toBe(202);
  const login = await call(target, 'POST', '/api/account/login', { body: { email, password } });
  expect(login.status).toBe(200);
  return at<{ token: string }>(login.body, 'data').token;
}

/** A cash-on-delivery order of 2 pieces of each variant, with a fresh idempotency key. */
const orderBody = (vIds: number[], overrides: Partial<PlaceOrderBody> = {}): PlaceOrderBody => ({
  ...courierOrder(vIds[0]!),
  lines: vIds.map((v_id) => ({ v_id, amount: 2 })),
  ...overrides,
});

type Placed = { order: { number: string; token: string; discount: number; couponCode: string | null } };
const placed = (answer: Answer) => at<Placed>(answer.body, 'data').order;

/** A delivered cash-on-delivery order of the customer's, as the account area shows it. */
async function deliveredOrder(target: RaceTarget, token: string) {
  const answer = await call(target, 'POST', '/api/orders', { body: orderBody(await target.variants()), token });
  expect(answer.status).toBe(201);
  const { number, token: orderToken } = placed(answer);
  for (const state of ['shipped', 'delivered']) {
    expect((await call(target, 'POST', `/api/operator/orders/${number}/state`, { body: { state }, operator: true })).status).toBe(200);
  }
  const detail = await call(target, 'GET', `/api/account/orders/${orderToken}`, { token });
  return at<{ token: string; total: number; lines: { itemId: number }[] }>(detail.body, 'data');
}

const withdraw = (target: RaceTarget, token: string, orderToken: string, itemIds: number[]) =>
  call(target, 'POST', `/api/account/orders/${orderToken}/withdraw`, { body: { itemIds, confirm: true }, token });

const MAX_ADDRESSES = 20;

export const RACE_RULES: RaceRule[] = [
  {
    name: 'a once-per-customer coupon in 10 orders of one customer at the same moment discounts exactly one',
    async run(target) {
      const token = await newCustomer(target);
      const variants = await target.variants();
      const answers = await Promise.all(
        Array.from({ length: 10 }, () =>
          call(target, 'POST', '/api/orders', { body: orderBody(variants, { couponCode: 'VITAJ15' }), token }),
        ),
      );
      const accepted = answers.filter((a) => a.status === 201);
      expect(accepted).toHaveLength(1);
      expect(placed(accepted[0]!).discount).toBeGreaterThan(0);
      for (const refused of answers.filter((a) => a.status !== 201)) expectRefusal(refused, 409);
      const orders = await call(target, 'GET', '/api/account/orders', { token });
      expect(at<unknown[]>(orders.body, 'data')).toHaveLength(1);
    },
  },
  {
    name: 'a coupon for 3 uses in all, sent by 8 customers at the same moment, discounts exactly 3 orders',
    async run(target) {
      const code = `PRETEKY${randomString(6).toUpperCase()}`;
      await target.addCoupon({ code, percent: 10, maxUses: 3, oncePerCustomer: false });
      const variants = await target.variants();
      const tokens = await Promise.all(Array.from({ length: 8 }, () => newCustomer(target)));
      const answers = await Promise.all(
        tokens.map((token) => call(target, 'POST', '/api/orders', { body: orderBody(variants, { couponCode: code }), token })),
      );
      expect(answers.filter((a) => a.status === 201).map((a) => placed(a).couponCode)).toEqual([code, code, code]);
      for (const refused of answers.filter((a) => a.status !== 201)) expectRefusal(refused, 409);
    },
  },
  {
    name: 'one idempotency key sent 10 times at the same moment gives one order, answered to all',
    async run(target) {
      const body = orderBody(await target.variants());
      const answers = await Promise.all(Array.from({ length: 10 }, () => call(target, 'POST', '/api/orders', { body })));
      expect(
        answers.every((a) => a.status === 201 || a.status === 200),
        JSON.stringify(answers.map((a) => a.status)),
      ).toBe(true);
      expect(new Set(answers.map((a) => placed(a).number)).size).toBe(1);
    },
  },
  {
    name: '20 orders for the last 3 pieces at the same moment give exactly 3 orders',
    async run(target) {
      const vId = await target.inStockVariant();
      await target.setStock(vId, 3);
      const answers = await Promise.all(
        Array.from({ length: 20 }, () =>
          call(target, 'POST', '/api/orders', { body: orderBody([vId], { lines: [{ v_id: vId, amount: 1 }] }) }),
        ),
      );
      expect(answers.filter((a) => a.status === 201)).toHaveLength(3);
      for (const refused of answers.filter((a) => a.status !== 201)) expectRefusal(refused, 409);
    },
  },
  {
    name: `${MAX_ADDRESSES * 2} addresses created at the same moment: exactly ${MAX_ADDRESSES} are stored`,
    async run(target) {
      const token = await newCustomer(target);
      const address = (i: number) => ({
        kind: 'delivery',
        name: `Stavba ${i}`,
        street: `Hlavná ${i + 1}`,
        city: 'Žilina',
        zip: '010 01',
        isDefault: i % 3 === 0,
      });
      const answers = await Promise.all(
        Array.from({ length: MAX_ADDRESSES * 2 }, (_, i) => call(target, 'POST', '/api/account/addresses', { body: address(i), token })),
      );
      expect(answers.filter((a) => a.status === 201)).toHaveLength(MAX_ADDRESSES);
      for (const refused of answers.filter((a) => a.status !== 201)) expectRefusal(refused, 409);
      const stored = at<{ isDefault: boolean }[]>((await call(target, 'GET', '/api/account/addresses', { token })).body, 'data');
      expect(stored).toHaveLength(MAX_ADDRESSES);
      // One default address of each kind, whatever order the requests ran in.
      expect(stored.filter((a) => a.isDefault)).toHaveLength(1);
    },
  },
  {
    name: 'addresses deleted and made default at the same moment leave exactly one default of the kind',
    async run(target) {
      const token = await newCustomer(target);
      const address = (i: number) => ({
        kind: 'delivery',
        name: `Sklad ${i}`,
        street: `Priemyselná ${i + 1}`,
        city: 'Nitra',
        zip: '949 01',
        isDefault: i === 0,
      });
      const ids: number[] = [];
      for (let i = 0; i < 6; i++)
        ids.push(at<{ id: number }>((await call(target, 'POST', '/api/account/addresses', { body: address(i), token })).body, 'data').id);
      // The default and two others deleted while two others are made default, all at once.
      const answers = await Promise.all([
        ...[ids[0]!, ids[1]!, ids[2]!].map((id) => call(target, 'DELETE', `/api/account/addresses/${id}`, { token })),
        ...[ids[3]!, ids[4]!].map((id, i) =>
          call(target, 'PUT', `/api/account/addresses/${id}`, { body: { ...address(3 + i), isDefault: true }, token }),
        ),
      ]);
      expect(
        answers.every((a) => a.status < 300),
        JSON.stringify(answers.map((a) => a.status)),
      ).toBe(true);
      const stored = at<{ isDefault: boolean }[]>((await call(target, 'GET', '/api/account/addresses', { token })).body, 'data');
      expect(stored).toHaveLength(3);
      expect(stored.filter((a) => a.isDefault)).toHaveLength(1);
    },
  },
  {
    name: 'withdrawals of every line at the same moment refund the total exactly once and end the order',
    async run(target) {
      const token = await newCustomer(target);
      const order = await deliveredOrder(target, token);
      const answers = await Promise.all(order.lines.map((l) => withdraw(target, token, order.token, [l.itemId])));
      expect(answers.map((a) => a.status)).toEqual(order.lines.map(() => 200));
      const detail = at<{ state: string; withdrawals: { refund: number }[] }>(
        (await call(target, 'GET', `/api/account/orders/${order.token}`, { token })).body,
        'data',
      );
      expect(detail.state).toBe('withdrawn');
      expect(detail.withdrawals.reduce((sum, w) => sum + w.refund, 0)).toBe(order.total);
    },
  },
  {
    name: 'the same line withdrawn twice at the same moment: one succeeds, one is refused',
    async run(target) {
      const token = await newCustomer(target);
      const order = await deliveredOrder(target, token);
      const answers = await Promise.all([1, 2].map(() => withdraw(target, token, order.token, [order.lines[0]!.itemId])));
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
      expectRefusal(
        answers.find((a) => a.status === 409)!,
        409,
      );
    },
  },
  {
    name: 'a complaint and a withdrawal of one line at the same moment: never a complaint of a line withdrawn before it',
    async run(target) {
      const token = await newCustomer(target);
      const order = await deliveredOrder(target, token);
      const itemId = order.lines[0]!.itemId;
      const form = new FormData();
      form.set('orderToken', order.token);
      form.set('itemId', String(itemId));
      form.set('reason', 'damaged');
      form.set('description', 'Tovar prišiel poškodený, roh je odlomený.');
      const complain = fetch(`${target.url}/api/account/complaints`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: form,
      }).then(async (res) => ({ status: res.status, body: (await res.json()) as unknown }));
      const [complaint, withdrawal] = await Promise.all([complain, withdraw(target, token, order.token, [itemId])]);
      expect(withdrawal.status).toBe(200);
      if (complaint.status !== 201) {
        expectRefusal(complaint, 409);
        return;
      }
      // Both accepted: the complaint was filed first, so the withdrawal came after it.
      const filed = at<{ createdAt: string }>(complaint.body, 'data').createdAt;
      const withdrawals = at<{ withdrawals: { createdAt: string }[] }>(
        (await call(target, 'GET', `/api/account/orders/${order.token}`, { token })).body,
        'data',
      ).withdrawals;
      expect(withdrawals.length).toBe(1);
      expect(filed <= withdrawals[0]!.createdAt).toBe(true);
    },
  },
  {
    name: 'one e-mail registered 5 times at the same moment gives one account, and no error',
    async run(target) {
      const email = `dvojca-${randomString(10).toLowerCase()}@example.sk`;
      const answers = await Promise.all(
        Array.from({ length: 5 }, (_, i) =>
          call(target, 'POST', '/api/account/register', { body: { email, password: `Heslo${i}23!x`, name: 'Dana Dvojitá' } }),
        ),
      );
      // The same answer whether the address was free or not: nothing tells who has an account.
      expect(answers.map((a) => a.status)).toEqual([202, 202, 202, 202, 202]);
      expect(await target.accounts(email)).toBe(1);
    },
  },
];
