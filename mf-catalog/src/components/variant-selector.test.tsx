import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { VariantSelector } from './variant-selector.tsx';
import { Price, SaleBadge } from './price.tsx';
import { variant } from './test-variant.ts';
import { salePercent } from '@shop/shared-kernel/rules';

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

describe('VariantSelector count word (requirements R9.10)', () => {
  it.each([
    [1, 'Vyberte variant (1 variant)'],
    [2, 'Vyberte variant (2 varianty)'],
    [4, 'Vyberte variant (4 varianty)'],
    [5, 'Vyberte variant (5 variantov)'],
  ])('%i variants', (count, name) => {
    const variants = Array.from({ length: count }, (_, i) => variant({ v_id: i + 1, v_name: `${i + 1} kg` }));
    render(<VariantSelector variants={variants} selected={1} onSelect={() => {}} />);
    expect(screen.getByRole('group', { name })).toBeTruthy();
  });

  it('shows each variant with its price with VAT and marks the chosen one', () => {
    render(
      <VariantSelector
        variants={[variant({}), variant({ v_id: 2, v_name: '5 kg', v_sellPrice: 2000, v_sale: 10000 })]}
        selected={2}
        onSelect={() => {}}
      />,
    );
    // 2.000 € + 23 % = 2.46 €, −10 % = 2.214 → 2,21 €
    const chosen = screen.getByRole('radio', { name: '5 kg · 2,21\u00a0€' }) as HTMLInputElement;
    expect(chosen.checked).toBe(true);
    expect((screen.getByRole('radio', { name: /25 kg · 12,30/ }) as HTMLInputElement).checked).toBe(false);
  });
});

describe('Price', () => {
  it('shows the price with VAT by requirements R9.4, and the price before the sale', () => {
    // 10.000 € + 23 % VAT = 12.30 €, minus 15 % = 10.455 → 10,46 €
    render(<Price variant={variant({ v_sale: 15000 })} />);
    expect(screen.getByTestId('price').textContent).toBe('10,46\u00a0€');
    expect(document.querySelector('.cat-price__before')?.textContent).toBe('Pôvodná cena 12,30\u00a0€');
  });

  it('shows the 30-day lowest price next to a discounted price, and the sale badge with its percentage', () => {
    render(
      <>
        <Price variant={variant({ v_sale: 15000 })} lowestPrice30={11990} />
        <SaleBadge percent={salePercent(variant({ v_sale: 15000 }))} />
      </>,
    );
    expect(screen.getByTestId('lowest-price').textContent).toBe('Najnižšia cena za 30 dní pred zľavou: 11,99\u00a0€');
    expect(screen.getByTestId('sale-badge').textContent).toBe('Zľava −15 %');
  });

  it('shows no lowest price and no badge without a discount', () => {
    render(
      <>
        <Price variant={variant({})} lowestPrice30={11990} />
        <SaleBadge percent={salePercent(variant({}))} />
      </>,
    );
    expect(screen.queryByTestId('lowest-price')).toBeNull();
    expect(screen.queryByTestId('sale-badge')).toBeNull();
  });

  it('shows a whole price without decimals and no struck-through price without a sale', () => {
    render(<Price variant={variant({ v_sellPrice: 100000 })} />);
    expect(screen.getByTestId('price').textContent).toBe('123\u00a0€');
    expect(screen.queryByText(/Pôvodná cena/)).toBeNull();
  });
});
