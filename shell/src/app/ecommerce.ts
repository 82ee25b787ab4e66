/**
 * GA4 e-commerce events from the bus: what the areas tell the page (a list shown, a product
 * viewed, basket changes, the checkout's steps, the order) becomes the events Google Analytics 4
 * expects in `dataLayer`. Only with the analytics consent and never on routes without consent
 * (`noConsent` in the route table: the operator's generate and pdf); a purchase is pushed once per order number.
 */
import { bus, useConsentStore, type CommerceItem, type ShopEvents } from '@shop/shared-kernel';
import { analyticsEnabled } from '@shop/shared-kernel/rules';
import { routeForPath } from './route-table.ts';

type DataLayer = { push: (entry: object) => void };
const PURCHASED_KEY = 'shop:purchased-orders';

const euros = (thousandths: number) => Math.round(thousandths / 10) / 100;

const ga4Items = (items: CommerceItem[]) =>
  items.map((item, index) => ({
    item_id: item.id,
    item_name: item.name,
    item_variant: item.variant,
    price: euros(item.price),
    quantity: item.quantity,
    index,
  }));

function allowed(): boolean {
  return analyticsEnabled(useConsentStore.getState().choices, routeForPath(window.location.pathname));
}

function firstPurchase(number: string): boolean {
  try {
    const done = new Set<string>(JSON.parse(sessionStorage.getItem(PURCHASED_KEY) ?? '[]') as string[]);
    if (done.has(number)) return false;
    done.add(number);
    sessionStorage.setItem(PURCHASED_KEY, JSON.stringify([...done].slice(-20)));
    return true;
  } catch {
    return true;
  }
}

/** Subscribes the GA4 mapping to the bus; returns the unsubscribe. */
export function installEcommerce(
  layer: () => DataLayer = () => ((window as unknown as { dataLayer?: object[] }).dataLayer ??= []),
): () => void {
  const push = (event: string, ecommerce: object) => {
    if (!allowed()) return;
    const target = layer();
    // GA4 asks to clear the previous ecommerce object first.
    target.push({ ecommerce: null });
    target.push({ event, ecommerce: { currency: 'EUR', ...ecommerce } });
  };
  const handlers: { [K in keyof ShopEvents]?: (payload: ShopEvents[K]) => void } = {
    'item:listed': ({ list, items }) => push('view_item_list', { item_list_name: list, items: ga4Items(items) }),
    'item:viewed': ({ item }) => push('view_item', { value: euros(item.price), items: ga4Items([item]) }),
    'basket:added': ({ item }) => push('add_to_cart', { value: euros(item.price * item.quantity), items: ga4Items([item]) }),
    'basket:removed': ({ item }) => push('remove_from_cart', { value: euros(item.price * item.quantity), items: ga4Items([item]) }),
    'checkout:begun': ({ items, value }) => push('begin_checkout', { value: euros(value), items: ga4Items(items) }),
    'checkout:shipping': ({ method, items, value }) =>
      push('add_shipping_info', { shipping_tier: method, value: euros(value), items: ga4Items(items) }),
    'checkout:payment': ({ method, items, value }) =>
      push('add_payment_info', { payment_type: method, value: euros(value), items: ga4Items(items) }),
    'order:placed': ({ number, value, shipping, items }) => {
      if (allowed() && firstPurchase(number))
        push('purchase', { transaction_id: number, value: euros(value), shipping: euros(shipping), items: ga4Items(items) });
    },
  };
  const entries = Object.entries(handlers) as [keyof ShopEvents, (payload: never) => void][];
  for (const [event, handler] of entries) bus.on(event, handler as never);
  return () => {
    for (const [event, handler] of entries) bus.off(event, handler as never);
  };
}
