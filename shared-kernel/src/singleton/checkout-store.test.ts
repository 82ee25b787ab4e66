// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { useBasketStore } from './basket-store.ts';
import { basketChanges, CHECKOUT_DRAFT_KEY } from '../rules/basket-rules.ts';
import { useCheckoutStore } from './checkout-store.ts';
import type { BasketLine, VariantData } from '../contract/index.ts';
import { orderDetail } from '../testing/fixtures.ts';

const variant = (v_id: number, v_sellPrice: number, v_availability: VariantData['v_availability'] = 'in_stock'): VariantData => ({
  v_id,
  v_code: `V${v_id}`,
  v_name: '25 kg',
  v_sellPrice,
  v_vat: 23,
  v_sale: 0,
  v_stock: 10,
  v_availability,
  v_weight: 1000,
  v_unit: 'ks',
  v_baseAmount: null,
  v_baseUnit: null,
  p_id: 1,
  p_name: 'Cement',
  p_url: 'cement',
  p_image: '',
});
const line = (data: VariantData, amount = 1): BasketLine => ({
  v_id: data.v_id,
  amount,
  variantData: data,
  isComponent: false,
  isRequired: false,
});

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  useBasketStore.getState().clear();
});

describe('checkout store', () => {
  it('remembers the price a line had when added and flags a later change until acknowledged', () => {
    useBasketStore.getState().add(line(variant(1, 1000)));
    expect(useCheckoutStore.getState().seen['1']).toEqual({ price: 1230, available: true });
    // the startup refresh brings new variant data
    useBasketStore.setState({ lines: [line(variant(1, 2000, 'unavailable'))] });
    useBasketStore.getState().updateAmount(1, 2);
    const changes = basketChanges(useBasketStore.getState().lines, useCheckoutStore.getState().seen);
    expect(changes).toEqual([{ v_id: 1, seenPrice: 1230, price: 2460, priceChanged: true, unavailable: true }]);
    useCheckoutStore.getState().acknowledge(1);
    expect(basketChanges(useBasketStore.getState().lines, useCheckoutStore.getState().seen)).toEqual([
      { v_id: 1, seenPrice: 2460, price: 2460, priceChanged: false, unavailable: true },
    ]);
    useBasketStore.getState().remove(1);
    expect(useCheckoutStore.getState().seen).toEqual({});
  });

  it('keeps the draft in sessionStorage and renews the idempotency key per attempt', () => {
    const store = useCheckoutStore.getState();
    store.update({ note: 'Volajte pred doručením', shippingCode: 'courier' });
    const saved = JSON.parse(sessionStorage.getItem(CHECKOUT_DRAFT_KEY)!);
    expect(saved.note).toBe('Volajte pred doručením');
    expect(saved.idempotencyKey).toHaveLength(32);
    const key = useCheckoutStore.getState().idempotencyKey;
    useCheckoutStore.getState().newAttempt();
    expect(useCheckoutStore.getState().idempotencyKey).not.toBe(key);
    useCheckoutStore.getState().finish(orderDetail());
    expect(useCheckoutStore.getState().note).toBe('');
    expect(useCheckoutStore.getState().shippingCode).toBeNull();
  });

  it('keeps the placed order for the thank-you page in memory only, until it is shown', () => {
    const placed = orderDetail();
    useCheckoutStore.getState().finish(placed);
    expect(useCheckoutStore.getState().placedOrder).toBe(placed);
    // Never stored: a reload (a new store) has no placed order and asks the API.
    expect(JSON.stringify({ ...sessionStorage })).not.toContain(placed.token);
    expect(JSON.stringify({ ...localStorage })).not.toContain(placed.token);
    useCheckoutStore.getState().forgetPlacedOrder();
    expect(useCheckoutStore.getState().placedOrder).toBeNull();
  });
});
