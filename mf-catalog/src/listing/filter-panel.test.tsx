import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { ListingFacets } from '@shop/shared-kernel/contract';
import { FilterPanel } from './filter-panel.tsx';
import { activeFilterCount, clearFilters, readFilters, setSort, toggleValue } from './listing-params.ts';

afterEach(cleanup);

const facets: ListingFacets = {
  brands: [
    { value: 'knauf', label: 'Knauf', count: 5 },
    { value: 'rigips', label: 'Rigips', count: 3 },
  ],
  availability: [{ value: 'in_stock', label: 'Skladom', count: 7 }],
  price: { min: 2490, max: 128990 },
  attributes: [
    {
      kind: 'values',
      attr_id: 14,
      attr_name: 'Materiál',
      unit_name: null,
      values: [{ value: 'sadra, kartón', label: 'sadra, kartón', count: 4 }],
    },
    { kind: 'range', attr_id: 1, attr_name: 'Hrúbka', unit_name: 'mm', min: 9500, max: 15000, count: 8 },
  ],
};

describe('FilterPanel', () => {
  it('shows every value with its count and ticks a value into the URL (several joined with |)', () => {
    const onChange = vi.fn();
    const params = new URLSearchParams('brands=knauf&page=3&sort=name');
    render(<FilterPanel facets={facets} params={params} onChange={onChange} />);
    expect((screen.getByRole('checkbox', { name: 'Knauf (5)' }) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Rigips (3)' }));
    const next = onChange.mock.calls[0]![0] as URLSearchParams;
    expect(next.get('brands')).toBe('knauf|rigips');
    expect(next.get('page')).toBeNull();
    expect(next.get('sort')).toBe('name');
    fireEvent.click(screen.getByRole('checkbox', { name: 'sadra, kartón (4)' }));
    expect((onChange.mock.calls[1]![0] as URLSearchParams).get('f14')).toBe('sadra, kartón');
  });

  it('applies a numeric range with its unit, cleaning the typed numbers as requirements R5.3 says', () => {
    const onChange = vi.fn();
    render(<FilterPanel facets={facets} params={new URLSearchParams()} onChange={onChange} />);
    expect(screen.getByText('Hrúbka (mm)')).toBeTruthy();
    const from = screen.getByRole('textbox', { name: 'Hrúbka od (mm)' }) as HTMLInputElement;
    expect(from.placeholder).toBe('od 9,50');
    fireEvent.change(from, { target: { value: '1 0,5' } });
    expect(from.value).toBe('10.5');
    fireEvent.click(screen.getByRole('button', { name: 'Použiť filter Hrúbka' }));
    expect((onChange.mock.calls[0]![0] as URLSearchParams).get('r1')).toBe('10.5-');
    fireEvent.change(screen.getByRole('textbox', { name: 'Cena s DPH do (€)' }), { target: { value: '50' } });
    fireEvent.click(screen.getByRole('button', { name: 'Použiť filter Cena s DPH' }));
    expect((onChange.mock.calls[1]![0] as URLSearchParams).get('price')).toBe('-50');
  });

  it('leaves the brand facet out on a brand page', () => {
    render(<FilterPanel facets={facets} params={new URLSearchParams()} onChange={() => {}} showBrands={false} />);
    expect(screen.queryByRole('group', { name: 'Značka' })).toBeNull();
    expect(screen.getByRole('group', { name: 'Dostupnosť' })).toBeTruthy();
  });
});

describe('listing URL state', () => {
  it('reads only filter keys, counts active values and clears them without touching the sort', () => {
    const params = new URLSearchParams('brands=knauf|rigips&price=1-5&r1=10-&f14=sadra&sort=price-asc&page=2&utm=x');
    expect(readFilters(params)).toEqual({ brands: 'knauf|rigips', price: '1-5', r1: '10-', f14: 'sadra' });
    expect(activeFilterCount(params)).toBe(5);
    expect(clearFilters(params).toString()).toBe('sort=price-asc&utm=x');
    expect(toggleValue(new URLSearchParams('brands=knauf'), 'brands', 'knauf').has('brands')).toBe(false);
    expect(setSort(params, 'popular').has('sort')).toBe(false);
  });
});
