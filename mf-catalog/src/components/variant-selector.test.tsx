import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { VariantData } from '@shop/shared-kernel';
import { VariantSelector } from './variant-selector.tsx';
import { Price } from './price.tsx';

export const variant = (over: Partial<VariantData>): VariantData => ({
  v_id: 1,
  v_code: 'A1',
  v_name: '25 kg',
  v_sellPrice: 10000,
  v_vat: 23,
  v_sale: 0,
  v_stock: 10,
  v_availability: 'in_stock',
  v_weight: 25000,
  v_unit: 'ks',
  v_baseAmount: 25000,
  v_baseUnit: 'kg',
  p_id: 1,
  p_name: 'Lepidlo',
  p_url: 'lepidlo',
  p_image: '/media/p/1.svg',
  ...over,
});

afterEach(cleanup);

describe('VariantSelector', () => {
  it('names the variant count with the Slovak word and disables unavailable variants', () => {
    const onSelect = vi.fn();
    render(
      <VariantSelector
        variants={[variant({}), variant({ v_id: 2, v_name: '5 kg' }), variant({ v_id: 3, v_name: '50 kg', v_availability: 'unavailable' })]}
        selected={1}
        onSelect={onSelect}
      />,
    );
    expect(screen.getByRole('group', { name: 'Vyberte variant (3 varianty)' })).toBeTruthy();
    const unavailable = screen.getByRole('radio', { name: /50 kg/ }) as HTMLInputElement;
    expect(unavailable.disabled).toBe(true);
    fireEvent.click(screen.getByRole('radio', { name: /^5 kg/ }));
    expect(onSelect).toHaveBeenCalledWith(2);
  });
});

describe('Price', () => {
  it('shows the price with VAT by the spec formula, and the price before the sale', () => {
    // 10.000 € + 23 % VAT = 12.30 €, minus 15 % = 10.455 → 10,46 €
    render(<Price variant={variant({ v_sale: 15000 })} />);
    expect(screen.getByTestId('price').textContent).toBe('10,46\u00a0€');
    expect(document.querySelector('.cat-price__before')?.textContent).toBe('Pôvodná cena 12,30\u00a0€');
  });

  it('shows a whole price without decimals and no struck-through price without a sale', () => {
    render(<Price variant={variant({ v_sellPrice: 100000 })} />);
    expect(screen.getByTestId('price').textContent).toBe('123\u00a0€');
    expect(screen.queryByText(/Pôvodná cena/)).toBeNull();
  });
});
