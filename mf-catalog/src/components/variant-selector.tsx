import { formatPrice, unitPriceWithVat, variantCountText } from '@shop/shared-kernel/rules';
import type { VariantData } from '@shop/shared-kernel/contract';

export const availabilityText: Record<VariantData['v_availability'], string> = {
  in_stock: 'Skladom',
  to_order: 'Na objednávku',
  unavailable: 'Nedostupné',
};

/** Radio group of a product's variants; unavailable ones cannot be chosen. */
export function VariantSelector({
  variants,
  selected,
  onSelect,
}: {
  variants: VariantData[];
  selected: number;
  onSelect: (v_id: number) => void;
}) {
  return (
    <fieldset className="cat-variants">
      <legend>Vyberte variant ({variantCountText(variants.length)})</legend>
      <div className="cat-variants__list">
        {variants.map((variant) => (
          <label key={variant.v_id} className="cat-variant">
            <input
              type="radio"
              name="variant"
              value={variant.v_id}
              checked={variant.v_id === selected}
              disabled={variant.v_availability === 'unavailable'}
              onChange={() => onSelect(variant.v_id)}
            />
            <span>
              {variant.v_name} · {formatPrice(unitPriceWithVat(variant))}
              {variant.v_availability === 'unavailable' ? ` (${availabilityText.unavailable})` : ''}
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
