import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { StandaloneRouting } from '@shop/shared-kernel/standalone';
import { useBasketStore } from '@shop/shared-kernel';
import type { ProductAccessory } from '@shop/shared-kernel/contract';
import { AddToBasket } from './add-to-basket.tsx';
import { variant } from './test-variant.ts';

beforeEach(() => useBasketStore.setState({ lines: [] }));
afterEach(cleanup);

const renderAdd = (props: Parameters<typeof AddToBasket>[0]) =>
  render(
    <StandaloneRouting>
      <AddToBasket {...props} />
    </StandaloneRouting>,
  );

describe('AddToBasket', () => {
  it('adds the cleaned amount with the variant data the basket needs', () => {
    renderAdd({ variant: variant({ v_id: 7 }) });
    fireEvent.change(screen.getByRole('textbox', { name: /Množstvo/ }), { target: { value: ' 3 ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Pridať do košíka' }));
    expect(useBasketStore.getState().lines).toEqual([
      { v_id: 7, amount: 3, variantData: variant({ v_id: 7 }), isComponent: false, isRequired: false },
    ]);
    expect(screen.getByText(/Pridané do košíka: 3 ks/)).toBeTruthy();
  });

  it('adds required accessories and components as their own lines, per piece times the amount', () => {
    const accessories: ProductAccessory[] = [
      { kind: 'required', amount: 1, variant: variant({ v_id: 20, p_name: 'Pripojovacia súprava' }) },
      { kind: 'component', amount: 2, variant: variant({ v_id: 21, p_name: 'Lemovanie' }) },
    ];
    renderAdd({ variant: variant({ v_id: 7 }), accessories });
    fireEvent.change(screen.getByRole('textbox', { name: /Množstvo/ }), { target: { value: '3' } });
    fireEvent.click(screen.getByRole('button', { name: 'Pridať do košíka' }));
    const lines = useBasketStore
      .getState()
      .lines.map(({ v_id, amount, isRequired, isComponent }) => ({ v_id, amount, isRequired, isComponent }));
    expect(lines).toEqual([
      { v_id: 7, amount: 3, isRequired: false, isComponent: false },
      { v_id: 20, amount: 3, isRequired: true, isComponent: false },
      { v_id: 21, amount: 6, isRequired: false, isComponent: true },
    ]);
  });

  it('cannot add an unavailable variant, nor a product whose required accessory is unavailable', () => {
    renderAdd({ variant: variant({ v_availability: 'unavailable' }) });
    expect((screen.getByRole('button', { name: 'Pridať do košíka' }) as HTMLButtonElement).disabled).toBe(true);
    cleanup();
    renderAdd({
      variant: variant({}),
      accessories: [{ kind: 'required', amount: 1, variant: variant({ v_id: 9, p_name: 'Súprava', v_availability: 'unavailable' }) }],
    });
    expect((screen.getByRole('button', { name: 'Pridať do košíka' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText(/povinné príslušenstvo Súprava nie je dostupné/)).toBeTruthy();
  });
});
