import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { createStandaloneRouter, StandaloneRoutes } from '@shop/shared-kernel/standalone';
import { configureApi, useAuthStore } from '@shop/shared-kernel';
import type { AccountOrderDetail } from '@shop/shared-kernel/contract';
import OrderDetailPage from './order-detail-page.tsx';

// What the sign-in leaves in the store (the session itself is the API's HttpOnly cookie).
const session = { user: { id: 7, name: 'Ján Novák', email: 'zakaznik@example.sk' }, expiresAt: Date.now() + 3_600_000 };
const orderToken = 'a'.repeat(32);
const line = (itemId: number, name: string) => ({
  v_id: itemId,
  v_code: `K${itemId}`,
  p_name: name,
  v_name: '25 kg',
  v_unit: 'ks',
  amount: 1,
  unitPrice: 5_000,
  vat: 23,
  lineTotal: 5_000,
  itemId,
  withdrawn: false,
});
const order: AccountOrderDetail = {
  number: '2026000001',
  token: orderToken,
  createdAt: '2026-06-01T08:00:00.000Z',
  status: 'new',
  paymentStatus: 'on_delivery',
  pickupPoint: null,
  shipping: { code: 'courier', name: 'Kuriér', price: 4_900 },
  payment: { code: 'cod', name: 'Na dobierku', price: 1_000 },
  contact: {
    email: 'a@b.sk',
    phone: '+421905123456',
    name: 'Jana Nová',
    billing: { street: 'Dlhá 1', city: 'Nitra', zip: '94901' },
    company: null,
    delivery: null,
  },
  note: '',
  lines: [line(11, 'Omietka'), line(12, 'Lepidlo')],
  itemsTotal: 10_000,
  couponCode: null,
  discount: 0,
  total: 15_900,
  amountDue: 15_900,
  vat: [{ rate: 23, base: 12_930, vat: 2_970, total: 15_900 }],
  transfer: null,
  canRetryPayment: false,
  state: 'delivered',
  history: [
    { state: 'received', at: '2026-06-01T08:00:00.000Z', note: '' },
    { state: 'delivered', at: '2026-06-03T08:00:00.000Z', note: '' },
  ],
  deliveredAt: '2026-06-03T08:00:00.000Z',
  withdrawalUntil: '2026-06-17T23:59:59.999Z',
  canWithdraw: true,
  withdrawalBlockedReason: null,
  canComplain: true,
  withdrawals: [],
};
const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
const fetchMock = vi.fn();

beforeEach(() => {
  fetchMock.mockReset();
  configureApi({ fetch: fetchMock as unknown as typeof fetch });
  useAuthStore.getState().login(session);
});
afterEach(cleanup);

describe('OrderDetailPage', () => {
  it('shows lines, state and history, and withdraws from a chosen line only after the confirmation step', async () => {
    fetchMock.mockImplementation(async (url: string, init: RequestInit) => {
      if (init.method === 'POST') {
        return json({ data: { ...order, lines: [order.lines[0], { ...order.lines[1], withdrawn: true }] } });
      }
      return json({ data: order });
    });
    const router = createStandaloneRouter([{ path: '/account/orders/:ordertoken', element: <OrderDetailPage /> }], {
      initialEntry: `/account/orders/${orderToken}`,
    });
    await act(async () => {
      render(<StandaloneRoutes router={router} />);
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Objednávka č. 2026000001' })).toBeTruthy();
    expect(screen.getByTestId('order-state').textContent).toBe('Doručená');
    // Dates as the specification writes them (dd.mm.yyyy), PSČ as written in Slovakia.
    expect(screen.getByText('01.06.2026')).toBeTruthy();
    expect(screen.getByText(/Dlhá 1, 949 01 Nitra/)).toBeTruthy();
    expect(screen.getAllByTestId('order-line')).toHaveLength(2);
    expect(screen.getAllByRole('link', { name: 'Reklamovať' })[0]!.getAttribute('href')).toBe(
      `/account/complaints?order=${orderToken}&item=11`,
    );

    fireEvent.click(screen.getByRole('button', { name: 'Odstúpiť od zmluvy…' }));
    fireEvent.click(screen.getByRole('checkbox', { name: /Lepidlo/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Pokračovať' }));
    expect(fetchMock.mock.calls.filter(([, init]) => (init as RequestInit).method === 'POST')).toHaveLength(0);
    expect(screen.getByRole('group', { name: 'Potvrdenie odstúpenia' }).textContent).toContain('Lepidlo');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Potvrdiť odstúpenie od zmluvy' }));
    });
    const [url, init] = fetchMock.mock.calls.find(([, i]) => (i as RequestInit).method === 'POST')!;
    expect(url).toBe(`/api/account/orders/${orderToken}/withdraw`);
    expect(JSON.parse((init as RequestInit).body as string)).toEqual({ itemIds: [12], confirm: true });
    expect((await screen.findByRole('status')).textContent).toContain('Odstúpenie od zmluvy sme prijali');
    expect(screen.getByText('Odstúpené')).toBeTruthy();
  });

  it('lays out the totals as the checkout does, the rounded amount due of a cash order included', async () => {
    const cash = { ...order, discount: 1_000, couponCode: 'MINUS1', total: 14_920, amountDue: 14_900 };
    fetchMock.mockImplementation(async () => json({ data: cash }));
    const router = createStandaloneRouter([{ path: '/account/orders/:ordertoken', element: <OrderDetailPage /> }], {
      initialEntry: `/account/orders/${orderToken}`,
    });
    await act(async () => {
      render(<StandaloneRoutes router={router} />);
    });
    await screen.findByRole('heading', { level: 1, name: 'Objednávka č. 2026000001' });
    const totals = [...document.querySelectorAll('.acc-totals dt')].map((dt) =>
      `${dt.textContent} = ${dt.nextElementSibling!.textContent}`.replace(/\u00a0/g, ' '),
    );
    expect(totals).toEqual([
      'Tovar spolu = 10 €',
      'Zľava (kupón MINUS1) = −1 €',
      'Doprava: Kuriér = 4,90 €',
      'Platba: Na dobierku = 1 €',
      'z toho DPH 23 % = 2,97 €',
      'Spolu s DPH = 14,92 €',
      'Na úhradu v hotovosti (zaokrúhlené na 0,05 €) = 14,90 €',
    ]);
    expect(screen.getByTestId('order-total').textContent).toBe('14,92\u00a0€');
  });
});
