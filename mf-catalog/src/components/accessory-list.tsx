import { Link } from '@shop/shared-kernel';
import { formatPrice, unitPriceWithVat } from '@shop/shared-kernel/rules';
import { shopPaths, type ProductAccessory } from '@shop/shared-kernel/contract';

const kindText: Record<ProductAccessory['kind'], string> = {
  required: 'povinné príslušenstvo',
  component: 'súčasť zostavy',
};

/** What the basket gets together with the product. */
export function AccessoryList({ accessories }: { accessories: ProductAccessory[] }) {
  if (accessories.length === 0) return null;
  return (
    <div className="cat-accessories" data-testid="accessories">
      <p className="cat-accessories__title">S produktom sa do košíka pridá aj:</p>
      <ul>
        {accessories.map((accessory) => (
          <li key={accessory.variant.v_id}>
            {accessory.amount}× <Link to={shopPaths.product(accessory.variant.p_url)}>{accessory.variant.p_name}</Link> (
            {accessory.variant.v_name}, {kindText[accessory.kind]}) – {formatPrice(unitPriceWithVat(accessory.variant))} /{' '}
            {accessory.variant.v_unit}
          </li>
        ))}
      </ul>
    </div>
  );
}
