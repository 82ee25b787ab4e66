// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { createStandaloneRouter, StandaloneRoutes } from '@shop/shared-kernel/standalone';
import { configureApi, useCheckoutStore } from '@shop/shared-kernel';
import { createFakeFetch, orderDetail } from '@shop/shared-kernel/testing';
import ThankYouPage from './thank-you-page.tsx';

const fake = createFakeFetch();
const placed = orderDetail({ paymentStatus: 'on_delivery', total: 30_520, amountDue: 30_500 });

beforeEach(() => {
  fake.reset();
  fake.on(`GET /api/orders/${placed.token}`, { body: { data: placed } });
  configureApi({ fetch: fake });
  useCheckoutStore.getState().forgetPlacedOrder();
});
afterEach(() => {
  cleanup();
  configureApi({ fetch: undefined });
});

async function visit(token = placed.token) {
  const router = createStandaloneRouter([{ path: '/checkout/thankyou/:orderToken', element: <ThankYouPage /> }], {
    initialEntry: `/checkout/thankyou/${token}`,
  });
  await act(async () => {
    render(<StandaloneRoutes router={router} />);
  });
}

describe('ThankYouPage', () => {
  it('shows the order this tab has just placed from the placing call, asking the API nothing', async () => {
    useCheckoutStore.getState().finish(placed);
    await visit();
    expect(screen.getByRole('heading', { level: 1, name: 'Ďakujeme za objednávku' })).toBeTruthy();
    expect(screen.getByTestId('order-number').textContent).toBe(placed.number);
    expect(screen.getByTestId('amount-due').textContent).toBe('30,50\u00a0€');
    expect(fake.callsTo(`GET /api/orders/${placed.token}`)).toHaveLength(0);
    // Shown once: a later visit asks for the order as it is then.
    expect(useCheckoutStore.getState().placedOrder).toBeNull();
    cleanup();
    await visit();
    expect(await screen.findByRole('heading', { level: 1, name: 'Ďakujeme za objednávku' })).toBeTruthy();
    expect(fake.callsTo(`GET /api/orders/${placed.token}`)).toHaveLength(1);
  });

  it('asks the API for an order it did not place (a reload, a link from the e-mail)', async () => {
    useCheckoutStore.getState().finish(orderDetail({ token: 'X'.repeat(32), number: '2026000099' }));
    await visit();
    expect(await screen.findByTestId('order-number')).toBeTruthy();
    expect(screen.getByTestId('order-number').textContent).toBe(placed.number);
    expect(fake.callsTo(`GET /api/orders/${placed.token}`)).toHaveLength(1);
  });
});
