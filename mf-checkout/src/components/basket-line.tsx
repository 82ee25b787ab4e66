import { useEffect, useState } from 'react';
import { Link, useBasketStore, useCheckoutStore } from '@shop/shared-kernel';
import {
  imageAt,
  numericInputText,
  formatPrice,
  lineTotal,
  parseAmountInput,
  unitPriceWithVat,
  type LineChange,
} from '@shop/shared-kernel/rules';
import { shopPaths, type BasketLine } from '@shop/shared-kernel/contract';

/**
 * One basket line: amount with the numeric cleaning of requirements R5.3, plus/minus, remove. A line whose
 * variant changed price or became unavailable since it was added is flagged, never changed
 * silently: the shopper acknowledges the new price or removes the line. Not `live` (the server's
 * line, before the page has hydrated): shown, its controls disabled until they work.
 */
export function BasketLineItem({ line, change, live = true }: { line: BasketLine; change?: LineChange | undefined; live?: boolean }) {
  const updateAmount = useBasketStore((state) => state.updateAmount);
  const remove = useBasketStore((state) => state.remove);
  const acknowledge = useCheckoutStore((state) => state.acknowledge);
  const [text, setText] = useState(String(line.amount));
  useEffect(() => setText(String(line.amount)), [line.amount]);
  const variant = line.variantData;
  const inputId = `amount-${line.v_id}`;

  const commit = (value: string) => {
    const amount = parseAmountInput(value);
    if (amount === null) setText(String(line.amount));
    else if (amount !== line.amount) updateAmount(line.v_id, amount);
  };

  return (
    <li className={`chk-line${change ? ' chk-line--changed' : ''}`} data-testid="basket-line">
      <img src={imageAt(variant.p_image, 160)} alt="" width={90} height={68} />
      <div>
        <Link to={shopPaths.product(variant.p_url)} className="chk-line__name">
          {variant.p_name}
        </Link>
        <div className="chk-line__meta">
          {variant.v_name} · <span data-testid="unit-price">{formatPrice(unitPriceWithVat(variant))}</span> / {variant.v_unit}
        </div>
      </div>
      <div className="chk-line__controls">
        <div className="chk-amount">
          <button
            type="button"
            className="button"
            aria-label={`Znížiť množstvo ${variant.p_name}`}
            disabled={!live || line.amount <= 1}
            onClick={() => updateAmount(line.v_id, line.amount - 1)}
          >
            −
          </button>
          <label htmlFor={inputId} className="visually-hidden">
            Množstvo {variant.p_name}
          </label>
          <input
            id={inputId}
            inputMode="numeric"
            readOnly={!live}
            value={text}
            onChange={(event) => setText(numericInputText(event.target.value))}
            onBlur={(event) => commit(event.target.value)}
            onKeyDown={(event) => event.key === 'Enter' && commit(event.currentTarget.value)}
          />
          <button
            type="button"
            className="button"
            aria-label={`Zvýšiť množstvo ${variant.p_name}`}
            disabled={!live}
            onClick={() => updateAmount(line.v_id, line.amount + 1)}
          >
            +
          </button>
        </div>
        <span className="chk-line__total" data-testid="line-total">
          {formatPrice(lineTotal(line))}
        </span>
        <button
          type="button"
          className="chk-link-button"
          aria-label={`Odstrániť ${variant.p_name}`}
          disabled={!live}
          onClick={() => remove(line.v_id)}
        >
          Odstrániť
        </button>
      </div>
      {change && (
        <div className="chk-line__flag" role="status" data-testid="line-changed">
          {change.unavailable ? (
            <p className="chk-message chk-message--error">
              {variant.p_name} ({variant.v_name}) sa už nepredáva a nedá sa objednať.{' '}
              <button type="button" className="chk-link-button" onClick={() => remove(line.v_id)}>
                Odstrániť z košíka
              </button>
            </p>
          ) : (
            <p className="chk-message chk-message--error">
              Cena sa zmenila z {formatPrice(change.seenPrice)} na {formatPrice(change.price)} za {variant.v_unit}.{' '}
              <button type="button" className="chk-link-button" onClick={() => acknowledge(line.v_id)}>
                Beriem na vedomie
              </button>
            </p>
          )}
        </div>
      )}
    </li>
  );
}
