import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { useAuthStore, useBasketStore } from '@shop/shared-kernel';
import type { BasketLine } from '@shop/shared-kernel/contract';
import { guarded } from './route-guards.tsx';

// What the sign-in leaves in the store (the session itself is the API's HttpOnly cookie).
const session = { user: { id: 7, name: 'Ján Novák', email: 'zakaznik@example.sk' }, expiresAt: Date.now() + 3_600_000 };
const line = { v_id: 1, amount: 1, isComponent: false, isRequired: false, variantData: {} } as unknown as BasketLine;

function renderAt(url: string, route: { requiresBasket?: boolean; requiresSignIn?: boolean }) {
  const router = createMemoryRouter(
    [
      { path: '/checkout/order', element: guarded(route, <p>Doprava a platba</p>) },
      { path: '/account/orders', element: guarded(route, <p>Objednávky</p>) },
      { path: '/checkout/cart', element: <p>Košík</p> },
      { path: '/account/login', element: <p>Prihlásenie</p> },
    ],
    { initialEntries: [url] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

beforeEach(() => {
  useAuthStore.getState().signOutLocally();
  useBasketStore.setState({ lines: [] });
});
afterEach(cleanup);

describe('requiresBasket', () => {
  it('sends a visitor with an empty basket to the basket', () => {
    const router = renderAt('/checkout/order', { requiresBasket: true });
    expect(screen.getByText('Košík')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/checkout/cart');
  });

  it('shows the step with a basket, and keeps it when the basket empties there (placing the order)', () => {
    useBasketStore.setState({ lines: [line] });
    const router = renderAt('/checkout/order', { requiresBasket: true });
    expect(screen.getByText('Doprava a platba')).toBeTruthy();
    act(() => useBasketStore.setState({ lines: [] }));
    expect(router.state.location.pathname).toBe('/checkout/order');
  });
});

describe('requiresSignIn', () => {
  it('sends a guest to sign in with the page (and its query) as next', () => {
    const router = renderAt('/account/orders?page=2', { requiresSignIn: true });
    expect(screen.getByText('Prihlásenie')).toBeTruthy();
    expect(new URLSearchParams(router.state.location.search).get('next')).toBe('/account/orders?page=2');
  });

  it('shows the page to a signed-in shopper, and sends them to sign in when the session ends', () => {
    useAuthStore.getState().login(session);
    const router = renderAt('/account/orders', { requiresSignIn: true });
    expect(screen.getByText('Objednávky')).toBeTruthy();
    act(() => useAuthStore.getState().signOutLocally());
    expect(router.state.location.pathname).toBe('/account/login');
  });

  it('leaves routes without the flags alone', () => {
    renderAt('/account/orders', {});
    expect(screen.getByText('Objednávky')).toBeTruthy();
  });
});
