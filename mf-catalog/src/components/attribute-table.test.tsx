import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import type { AttributeEntry } from '@shop/shared-kernel/contract';
import { AttributeTable } from './attribute-table.tsx';

const entry = (over: Partial<AttributeEntry>): AttributeEntry => ({
  attr_id: 1,
  attr_name: 'Hrúbka',
  use_attr: 1,
  attributeValues: [{ av_string: null, av_integer: 12500 }],
  units: { unit_name: 'mm' },
  ...over,
});

afterEach(cleanup);

describe('AttributeTable', () => {
  it('shows numeric values from thousandths with their unit, and string values as they are', () => {
    render(
      <AttributeTable
        attributes={[
          entry({}),
          entry({ attr_id: 2, attr_name: 'Farba', units: null, attributeValues: [{ av_string: 'biela', av_integer: null }] }),
          entry({
            attr_id: 3,
            attr_name: 'Hmotnosť',
            attributeValues: [{ av_string: null, av_integer: 25000 }],
            units: { unit_name: 'kg' },
          }),
        ]}
      />,
    );
    expect(screen.getByRole('row', { name: 'Hrúbka 12,50 mm' })).toBeTruthy();
    expect(screen.getByRole('row', { name: 'Farba biela' })).toBeTruthy();
    expect(screen.getByRole('row', { name: 'Hmotnosť 25 kg' })).toBeTruthy();
  });

  it('hides attributes whose use_attr is not 1', () => {
    render(<AttributeTable attributes={[entry({ attr_name: 'Interný kód', use_attr: 0 }), entry({ attr_id: 2 })]} />);
    expect(screen.queryByText('Interný kód')).toBeNull();
    expect(screen.getAllByRole('row')).toHaveLength(1);
  });

  it('joins several values and keeps units with decimals (comma) and without (whole numbers)', () => {
    render(
      <AttributeTable
        attributes={[
          entry({
            attr_name: 'Súčiniteľ tepelnej vodivosti λ',
            units: { unit_name: 'W/(m·K)' },
            attributeValues: [{ av_string: null, av_integer: 35 }],
          }),
          entry({
            attr_id: 2,
            attr_name: 'Materiál',
            units: null,
            attributeValues: [
              { av_string: 'sadra', av_integer: null },
              { av_string: 'kartón', av_integer: null },
            ],
          }),
          entry({
            attr_id: 3,
            attr_name: 'Príkon',
            units: { unit_name: 'W' },
            attributeValues: [{ av_string: null, av_integer: 1_800_000 }],
          }),
        ]}
      />,
    );
    expect(screen.getByRole('row', { name: 'Súčiniteľ tepelnej vodivosti λ 0,035 W/(m·K)' })).toBeTruthy();
    expect(screen.getByRole('row', { name: 'Materiál sadra, kartón' })).toBeTruthy();
    expect(screen.getByRole('row', { name: /^Príkon 1\s?800 W$/ })).toBeTruthy();
  });

  it('renders nothing when no attribute is shown', () => {
    const { container } = render(<AttributeTable attributes={[entry({ use_attr: 0 })]} />);
    expect(container.innerHTML).toBe('');
  });
});
