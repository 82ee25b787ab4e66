// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { createStandaloneRouter, StandaloneRoutes } from '@shop/shared-kernel/standalone';
import { useCheckoutStore } from '@shop/shared-kernel';
import { CHECKOUT_DRAFT_KEY } from '@shop/shared-kernel/rules';
import ContactPage from './contact-page.tsx';

beforeEach(() => {
  sessionStorage.clear();
  useCheckoutStore
    .getState()
    .setContact({ email: '', phone: '', name: '', billing: { street: '', city: '', zip: '' }, company: null, delivery: null });
  useCheckoutStore.getState().update({ companyPurchase: false, differentDelivery: false });
});
afterEach(cleanup);

const renderPage = () =>
  render(
    <StandaloneRoutes
      router={createStandaloneRouter(
        [
          { path: '/checkout/contact', element: <ContactPage /> },
          { path: '/checkout/order', element: <h1>Doprava a platba</h1> },
        ],
        { initialEntry: '/checkout/contact' },
      )}
    />,
  );

describe('ContactPage', () => {
  it('shows a Slovak message per field, including the company fields, and keeps the draft', () => {
    renderPage();
    fireEvent.click(screen.getByLabelText('Nakupujem na firmu'));
    fireEvent.change(screen.getByLabelText('IČO'), { target: { value: '123' } });
    fireEvent.click(screen.getByRole('button', { name: 'Pokračovať k doprave a platbe' }));
    expect(screen.getByText('Zadajte platný e-mail, napr. jan.novak@example.sk.')).toBeTruthy();
    expect(screen.getByText('PSČ má 5 číslic, napr. 010 01.')).toBeTruthy();
    expect(screen.getByText('IČO má 8 číslic.')).toBeTruthy();
    expect(screen.getByLabelText('IČO').getAttribute('aria-invalid')).toBe('true');
    expect(JSON.parse(sessionStorage.getItem(CHECKOUT_DRAFT_KEY)!).contact.company.ico).toBe('123');
  });

  it('goes on to the order step when every field is valid', () => {
    renderPage();
    const fill = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
    fill('E-mail', 'jan@example.sk');
    fill('Telefón', '+421 905 123 456');
    fill('Meno a priezvisko', 'Ján Novák');
    fill('Ulica a číslo', 'Hlavná 1');
    fill('Mesto', 'Žilina');
    fill('PSČ', '01001');
    fireEvent.click(screen.getByRole('button', { name: 'Pokračovať k doprave a platbe' }));
    expect(screen.getByRole('heading', { name: 'Doprava a platba' })).toBeTruthy();
  });
});
