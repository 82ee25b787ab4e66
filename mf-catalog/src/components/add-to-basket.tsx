import { useState } from 'react';
import { Link, useBasketStore } from '@shop/shared-kernel';
import { numericInputText, parseAmountInput } from '@shop/shared-kernel/rules';
import { useAfterHydration } from '@shop/shared-kernel/react';
import { shopPaths, type ProductAccessory, type VariantData } from '@shop/shared-kernel/contract';

/**
 * Quantity with the numeric cleaning of requirements R5.3, and the add-to-basket button. Required accessories
 * and components go into the basket with the product (isRequired / isComponent lines), in the
 * amount per piece times the quantity.
 */
export function AddToBasket({ variant, accessories = [] }: { variant: VariantData; accessories?: ProductAccessory[] }) {
  const add = useBasketStore((state) => state.add);
  const [text, setText] = useState('1');
  const [added, setAdded] = useState<number | null>(null);
  const amount = parseAmountInput(text);
  const unavailable = variant.v_availability === 'unavailable';
  const blockedBy = accessories.find((a) => a.variant.v_availability === 'unavailable');
  // A server-rendered page takes input once its script runs: what was typed before would be lost.
  const ready = useAfterHydration();

  const submit = () => {
    if (amount === null || unavailable || blockedBy) return;
    add({ v_id: variant.v_id, amount, variantData: variant, isComponent: false, isRequired: false });
    for (const accessory of accessories) {
      add({
        v_id: accessory.variant.v_id,
        amount: accessory.amount * amount,
        variantData: accessory.variant,
        isComponent: accessory.kind === 'component',
        isRequired: accessory.kind === 'required',
      });
    }
    setAdded(amount);
  };

  return (
    <div className="cat-add-block">
      <form
        className="cat-add"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <label>
          Množstvo ({variant.v_unit})
          <input
            inputMode="numeric"
            value={text}
            onChange={(event) => {
              setText(numericInputText(event.target.value));
              setAdded(null);
            }}
            disabled={!ready}
            aria-invalid={amount === null}
            aria-describedby={amount === null ? 'amount-error' : undefined}
          />
        </label>
        <button type="submit" className="button button--primary" disabled={!ready || unavailable || amount === null || Boolean(blockedBy)}>
          Pridať do košíka
        </button>
      </form>
      {amount === null && (
        <p id="amount-error" className="cat-error" role="alert">
          Zadajte množstvo aspoň 1.
        </p>
      )}
      {unavailable && <p>Tento variant momentálne nie je možné objednať.</p>}
      {!unavailable && blockedBy && (
        <p>Produkt teraz nie je možné objednať: povinné príslušenstvo {blockedBy.variant.p_name} nie je dostupné.</p>
      )}
      <div aria-live="polite">
        {added !== null && (
          <p className="cat-notice">
            Pridané do košíka: {added} {variant.v_unit}
            {accessories.length > 0 ? ' aj s príslušenstvom' : ''}. <Link to={shopPaths.cart()}>Prejsť do košíka</Link>
          </p>
        )}
      </div>
    </div>
  );
}
