import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { createStandaloneRouter, StandaloneRoutes } from '@shop/shared-kernel/standalone';
import { configureApi, useAuthStore } from '@shop/shared-kernel';
import { createFakeFetch } from '@shop/shared-kernel/testing';
import LoginPage from './login-page.tsx';

// A token whose payload carries user_id 7 (the signature is the server's business).
const token = `x.${btoa(JSON.stringify({ user_id: 7 })).replace(/=+$/, '')}.y`;
const expiresAt = new Date(Date.now() + 7 * 24 * 3_600_000).toISOString();
const fake = createFakeFetch();

function renderAt(url: string) {
  const router = createStandaloneRouter(
    [
      { path: '/account/login', element: <LoginPage /> },
      { path: '*', element: <p>Cieľ</p> },
    ],
    { initialEntry: url },
  );
  render(<StandaloneRoutes router={router} />);
  return router;
}

async function submit(email: string, password: string) {
  fireEvent.change(screen.getByLabelText('E-mail'), { target: { value: email } });
  fireEvent.change(screen.getByLabelText('Heslo'), { target: { value: password } });
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name: 'Prihlásiť sa' }));
  });
}

beforeEach(() => {
  fake.reset();
  configureApi({ fetch: fake });
  useAuthStore.getState().signOutLocally();
});
afterEach(cleanup);

describe('LoginPage', () => {
  it('asks for both fields and makes no call when one is empty', async () => {
    renderAt('/account/login');
    await submit('zakaznik@example.sk', '');
    expect(screen.getByRole('alert').textContent).toBe('Zadajte e-mail aj heslo.');
    expect(fake.calls).toHaveLength(0);
  });

  it('shows one message for wrong credentials and stays signed out', async () => {
    fake.on('POST /api/account/login', { status: 401, body: { error: { code: 'unauthorized', message: 'Nesprávny e-mail alebo heslo' } } });
    renderAt('/account/login');
    await submit('zakaznik@example.sk', 'zle');
    expect(screen.getByRole('alert').textContent).toBe('Nesprávny e-mail alebo heslo.');
    expect(useAuthStore.getState().auth).toEqual({});
  });

  it('signs in, keeps who is signed in but never the token, and follows only a same-site next path', async () => {
    fake.on('POST /api/account/login', { body: { data: { token, expiresAt, user: { id: 7, email: 'a@b.sk', name: 'A' } } } });
    const router = renderAt('/account/login?next=https://zly.example/');
    await submit('a@b.sk', 'Heslo123!');
    expect(useAuthStore.getState().auth).toEqual({
      auth: 1,
      user: { id: 7, email: 'a@b.sk', name: 'A' },
      expiresAt: Date.parse(expiresAt),
    });
    expect(JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage })).not.toContain(token);
    expect(router.location.pathname).toBe('/account/profile');
  });
});
