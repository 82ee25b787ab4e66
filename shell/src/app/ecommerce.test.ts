import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bus, useConsentStore } from '@shop/shared-kernel';
import { installEcommerce } from './ecommerce.ts';
import { setRouteTable } from './route-table.ts';

const item = { id: 'T7', name: 'Tehla plná', variant: 'paleta', price: 1230, quantity: 2 };
let pushed: object[];
let uninstall: () => void;

beforeEach(() => {
  pushed = [];
  sessionStorage.clear();
  uninstall = installEcommerce(() => ({ push: (entry) => void pushed.push(entry) }));
  setRouteTable({
    checkout: {
      version: '1',
      entry: 'x',
      kernel: '3.0.0',
      exposes: ['./OperatorPage'],
      routes: [{ name: 'pdf', path: '/pdf', module: './OperatorPage', layout: 'checkout', noConsent: true }],
    },
  });
});
afterEach(() => {
  uninstall();
  window.history.replaceState(null, '', '/');
});

const consent = (ga: boolean) => useConsentStore.setState({ choices: { cookie_required: true, cookie_ga: ga, cookie_ads: false } });
const events = () => pushed.filter((entry) => 'event' in entry);

describe('GA4 e-commerce events from the bus', () => {
  it('are pushed only with the analytics consent, in GA4 shape, the ecommerce object cleared first', () => {
    consent(false);
    bus.emit('basket:added', { item, basketTotal: 2460 });
    expect(pushed).toEqual([]);
    consent(true);
    bus.emit('basket:added', { item, basketTotal: 2460 });
    expect(pushed).toEqual([
      { ecommerce: null },
      {
        event: 'add_to_cart',
        ecommerce: {
          currency: 'EUR',
          value: 2.46,
          items: [{ item_id: 'T7', item_name: 'Tehla plná', item_variant: 'paleta', price: 1.23, quantity: 2, index: 0 }],
        },
      },
    ]);
  });

  it('push a purchase once per order, and nothing on a route without consent', () => {
    consent(true);
    const order = { number: '2026000123', value: 50_000, shipping: 2900, items: [item] };
    bus.emit('order:placed', order);
    bus.emit('order:placed', order);
    expect(events()).toEqual([
      { event: 'purchase', ecommerce: expect.objectContaining({ transaction_id: '2026000123', value: 50, shipping: 2.9 }) },
    ]);
    window.history.replaceState(null, '', '/pdf');
    bus.emit('item:viewed', { item });
    expect(events()).toHaveLength(1);
  });

  it('carry nothing personal into the data layer, whatever an event carries beside what GA4 needs', () => {
    consent(true);
    const personal = { email: 'jana.novakova@example.sk', phone: '+421900123456', customerName: 'Jana Nováková', street: 'Hlavná 1' };
    bus.emit('order:placed', { number: '2026000999', value: 10_000, shipping: 0, items: [{ ...item, ...personal }], ...personal } as never);
    bus.emit('checkout:begun', { items: [{ ...item, ...personal }], value: 2460, ...personal } as never);
    const layer = JSON.stringify(pushed);
    expect(events().length).toBe(2);
    for (const value of Object.values(personal)) expect(layer).not.toContain(value);
  });
});
