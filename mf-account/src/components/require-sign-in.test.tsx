import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { createStandaloneRouter, StandaloneRoutes } from '@shop/shared-kernel/standalone';
import { useAuthStore } from '@shop/shared-kernel';
import { RequireSignIn } from './require-sign-in.tsx';

const token = `x.${btoa(JSON.stringify({ user_id: 7 })).replace(/=+$/, '')}.y`;

function renderAt(url: string) {
  const router = createStandaloneRouter(
    [
      { path: '/account/orders', element: <RequireSignIn><p>Objednávky</p></RequireSignIn> },
      { path: '/account/login', element: <p>Prihlásenie</p> },
    ],
    { initialEntry: url },
  );
  render(<StandaloneRoutes router={router} />);
  return router;
}

beforeEach(() => useAuthStore.getState().signOutLocally());
afterEach(cleanup);

describe('RequireSignIn', () => {
  it('sends a guest to sign in with the page (and its query) as next', () => {
    const router = renderAt('/account/orders?page=2');
    expect(screen.getByText('Prihlásenie')).toBeTruthy();
    expect(router.location.pathname).toBe('/account/login');
    expect(new URLSearchParams(router.location.search).get('next')).toBe('/account/orders?page=2');
  });

  it('shows the page to a signed-in shopper', () => {
    useAuthStore.getState().login(token);
    renderAt('/account/orders');
    expect(screen.getByText('Objednávky')).toBeTruthy();
  });
});
