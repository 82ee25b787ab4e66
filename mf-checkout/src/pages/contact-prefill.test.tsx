// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { StandaloneRouting } from '@shop/shared-kernel/standalone';
import { configureApi, useAuthStore, useCheckoutStore } from '@shop/shared-kernel';
import { emptyContact } from '@shop/shared-kernel/rules';
import ContactPage from './contact-page.tsx';

// The account's prefill: profile and default addresses fill the empty fields.
// What the sign-in leaves in the store (the session itself is the API's HttpOnly cookie).
const session = { user: { id: 7, name: 'Ján Novák', email: 'zakaznik@example.sk' }, expiresAt: Date.now() + 3_600_000 };
const fetchMock = vi.fn();

beforeEach(() => {
  sessionStorage.clear();
  fetchMock.mockReset();
  configureApi({ fetch: fetchMock as unknown as typeof fetch });
  useCheckoutStore.getState().setContact({ ...emptyContact(), phone: '0911 222 333' });
  useCheckoutStore.getState().update({ companyPurchase: false, differentDelivery: false });
  useAuthStore.getState().login(session);
});
afterEach(() => {
  cleanup();
  useAuthStore.getState().signOutLocally();
});

describe('ContactPage prefill', () => {
  it('fills empty fields from the account and keeps what the shopper typed', async () => {
    fetchMock.mockResolvedValue(
      new Response(
        JSON.stringify({
          data: {
            contact: {
              email: 'jana@example.sk',
              phone: '+421905111222',
              name: 'Jana Nová',
              billing: { street: 'Dlhá 1', city: 'Nitra', zip: '94901' },
              company: null,
              delivery: { name: 'Stavba Nová', street: 'Poľná 7', city: 'Senec', zip: '90301' },
            },
          },
        }),
        { status: 200, headers: { 'content-type': 'application/json' } },
      ),
    );
    await act(async () => {
      render(
        <StandaloneRouting at="/checkout/contact">
          <ContactPage />
        </StandaloneRouting>,
      );
    });
    expect(fetchMock.mock.calls[0]![0]).toBe('/api/account/checkout-prefill');
    expect((screen.getByLabelText('E-mail') as HTMLInputElement).value).toBe('jana@example.sk');
    expect((screen.getByLabelText('Telefón') as HTMLInputElement).value).toBe('0911 222 333');
    expect((screen.getAllByLabelText('Ulica a číslo')[0] as HTMLInputElement).value).toBe('Dlhá 1');
    expect((screen.getByLabelText('Doručiť na inú adresu') as HTMLInputElement).checked).toBe(true);
    expect((screen.getByLabelText('Meno a priezvisko príjemcu') as HTMLInputElement).value).toBe('Stavba Nová');
  });
});
