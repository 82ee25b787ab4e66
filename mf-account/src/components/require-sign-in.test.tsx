import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { createStandaloneRouter, StandaloneRoutes } from '@shop/shared-kernel/standalone';
import { useAuthStore } from '@shop/shared-kernel';
import { RequireSignIn } from './require-sign-in.tsx';

// What the sign-in leaves in the store (the session itself is the API's HttpOnly cookie).
const session = { user: { id: 7, name: 'Ján Novák', email: 'zakaznik@example.sk' }, expiresAt: Date.now() + 3_600_000 };

function renderAt(url: string) {
  const router = createStandaloneRouter(
    [
      {
        path: '/account/orders',
        element: (
          <RequireSignIn>
            <p>Objednávky</p>
          </RequireSignIn>
        ),
      },
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
    useAuthStore.getState().login(session);
    renderAt('/account/orders');
    expect(screen.getByText('Objednávky')).toBeTruthy();
  });
});
