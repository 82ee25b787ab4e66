// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { StandaloneRouting } from '@shop/shared-kernel/standalone';
import { useBasketStore } from '@shop/shared-kernel';
import type { BasketLine } from '@shop/shared-kernel/contract';
import { BasketLineItem } from './basket-line.tsx';

const line: BasketLine = {
  v_id: 7,
  amount: 2,
  isComponent: false,
  isRequired: false,
  variantData: {
    v_id: 7,
    v_code: 'T7',
    v_name: 'paleta',
    v_sellPrice: 1000,
    v_vat: 23,
    v_sale: 0,
    v_stock: 100,
    v_availability: 'in_stock',
    v_weight: 1000,
    v_unit: 'ks',
    v_baseAmount: null,
    v_baseUnit: null,
    p_id: 3,
    p_name: 'Tehla plná',
    p_url: 'tehla-plna',
    p_image: '/media/p/3.svg',
  },
};

function Current() {
  const lines = useBasketStore((state) => state.lines);
  return (
    <StandaloneRouting>
      {lines.map((item) => (
        <BasketLineItem key={item.v_id} line={item} />
      ))}
    </StandaloneRouting>
  );
}

beforeEach(() => {
  localStorage.clear();
  useBasketStore.getState().clear();
  useBasketStore.getState().add(line);
});
afterEach(cleanup);

describe('BasketLineItem', () => {
  it('shows the line total as the rounded unit price times the amount', () => {
    render(<Current />);
    // 1.000 € + 23 % = 1,23 € × 2
    expect(screen.getByTestId('line-total').textContent).toBe('2,46\u00a0€');
  });

  it('changes the amount with plus and minus, and the store and the total follow', () => {
    render(<Current />);
    fireEvent.click(screen.getByRole('button', { name: 'Zvýšiť množstvo Tehla plná' }));
    expect(useBasketStore.getState().lines[0]?.amount).toBe(3);
    expect(screen.getByTestId('line-total').textContent).toBe('3,69\u00a0€');
    fireEvent.click(screen.getByRole('button', { name: 'Znížiť množstvo Tehla plná' }));
    expect(useBasketStore.getState().lines[0]?.amount).toBe(2);
  });

  it('cleans a typed amount by requirements R5.3 and commits it on Enter', () => {
    render(<Current />);
    const input = screen.getByLabelText('Množstvo Tehla plná') as HTMLInputElement;
    fireEvent.change(input, { target: { value: '1 2,5' } });
    // Cleaned by requirements R5.3, shown with the decimal comma the shopper typed.
    expect(input.value).toBe('12,5');
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(useBasketStore.getState().lines[0]?.amount).toBe(12);
  });

  it('removes the line', () => {
    render(<Current />);
    fireEvent.click(screen.getByRole('button', { name: 'Odstrániť Tehla plná' }));
    expect(useBasketStore.getState().lines).toEqual([]);
    expect(screen.queryByTestId('basket-line')).toBeNull();
  });
});
