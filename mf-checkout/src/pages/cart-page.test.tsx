// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { hydrateRoot } from 'react-dom/client';
import { StandaloneRouting } from '@shop/shared-kernel/standalone';
import { configureApi, RoutingProvider, useBasketStore, useCheckoutStore } from '@shop/shared-kernel';
import type { BasketLine, VariantData } from '@shop/shared-kernel/contract';
import CartPage from './cart-page.tsx';

const variant = (v_sellPrice: number, v_availability: VariantData['v_availability'] = 'in_stock'): VariantData => ({
  v_id: 7,
  v_code: 'T7',
  v_name: 'paleta',
  v_sellPrice,
  v_vat: 23,
  v_sale: 0,
  v_stock: 100,
  v_availability,
  v_weight: 1000,
  v_unit: 'ks',
  v_baseAmount: null,
  v_baseUnit: null,
  p_id: 3,
  p_name: 'Tehla plná',
  p_url: 'tehla-plna',
  p_image: '/media/p/3.svg',
});
const line = (data: VariantData): BasketLine => ({ v_id: 7, amount: 2, isComponent: false, isRequired: false, variantData: data });

let fresh: VariantData | null;

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  useBasketStore.getState().clear();
  useBasketStore.getState().add(line(variant(1000)));
  // The API answers fresh variant data for the refresh and a quote for the shipping estimate.
  configureApi({
    fetch: vi.fn(async (url: string) => {
      if (String(url).includes('/variant/detail')) {
        // null: the shop no longer sells the variant (404).
        return fresh
          ? new Response(JSON.stringify({ data: fresh }), { status: 200 })
          : new Response(JSON.stringify({ error: { code: 'not_found', message: 'Variant neexistuje.' } }), { status: 404 });
      }
      return new Response(JSON.stringify({ error: { code: 'internal', message: 'x' } }), { status: 500 });
    }) as unknown as typeof fetch,
  });
});
afterEach(() => {
  cleanup();
  configureApi({ fetch: undefined });
});

const renderPage = () =>
  render(
    <StandaloneRouting>
      <CartPage />
    </StandaloneRouting>,
  );

describe('CartPage', () => {
  it('flags a line whose price changed since it was added, until the shopper acknowledges it', async () => {
    fresh = variant(2000);
    renderPage();
    expect(await screen.findByText(/Cena sa zmenila z 1,23\s€ na 2,46\s€ za ks/)).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Pokračovať k údajom' })).toBeNull();
    expect(useBasketStore.getState().lines[0]?.amount).toBe(2);
    fireEvent.click(screen.getByRole('button', { name: 'Beriem na vedomie' }));
    expect(screen.queryByTestId('line-changed')).toBeNull();
    expect(screen.getByRole('link', { name: 'Pokračovať k údajom' })).toBeTruthy();
    expect(useCheckoutStore.getState().seen['7']?.price).toBe(2460);
  });

  it('flags a line that became unavailable and blocks continuing', async () => {
    fresh = variant(1000, 'unavailable');
    renderPage();
    expect(await screen.findByText(/sa už nepredáva a nedá sa objednať\./)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Odstrániť z košíka' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Pokračovať k údajom' })).toBeNull();
  });

  it('names a line the shop no longer sells, offers to remove it, and does not let the shopper go on', async () => {
    fresh = null;
    renderPage();
    expect(await screen.findByText('Tehla plná (paleta) sa už nepredáva a nedá sa objednať.', { exact: false })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Pokračovať k údajom' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Odstrániť z košíka' }));
    expect(useBasketStore.getState().lines).toEqual([]);
  });
});

/** The page at its address, as the shell provides routing on the server and while hydrating (no history). */
const atCart = { location: { pathname: '/checkout/cart', search: '', hash: '' }, params: {}, navigate: () => undefined };
function AtCart() {
  return (
    <RoutingProvider value={atCart}>
      <CartPage />
    </RoutingProvider>
  );
}

describe('CartPage from the server', () => {
  // The server cannot read this browser's storage: its HTML is the page's frame, the same for every shopper.
  it("renders the frame without the basket's state, and hydrating it shows the stored lines", async () => {
    fresh = variant(1000);
    const html = renderToString(<AtCart />);
    expect(html).toContain('<h1>Košík</h1>');
    expect(html).toContain('Doručenie (kuriér, výdajné miesto, paleta)');
    expect(html).toContain('aria-label="Načítava sa…"');
    expect(html).not.toContain('Tehla plná');
    expect(html).not.toContain('Košík je prázdny');

    const container = document.createElement('div');
    container.innerHTML = html;
    document.body.append(container);
    const mismatches: unknown[] = [];
    await act(async () => {
      hydrateRoot(container, <AtCart />, { onRecoverableError: (error) => mismatches.push(error) });
    });
    expect(mismatches).toEqual([]);
    const page = within(container);
    expect(page.getByRole('list', { name: 'Položky v košíku' })).toBeTruthy();
    expect(page.getByText('Tehla plná')).toBeTruthy();
    expect(page.queryByRole('status', { name: 'Načítava sa…' })).toBeNull();
    container.remove();
  });

  it('hydrating the frame with an empty basket says so', async () => {
    useBasketStore.getState().clear();
    const html = renderToString(<AtCart />);
    const container = document.createElement('div');
    container.innerHTML = html;
    document.body.append(container);
    await act(async () => {
      hydrateRoot(container, <AtCart />);
    });
    expect(within(container).getByRole('heading', { level: 1, name: 'Košík je prázdny' })).toBeTruthy();
    expect(within(container).getByRole('link', { name: 'Pokračovať v nákupe' })).toBeTruthy();
    container.remove();
  });
});
