import { useId, useState, type FormEvent } from 'react';
import { cleanNumericInput } from '@shop/shared-kernel/rules';
import type { FacetValue, ListingFacets } from '@shop/shared-kernel/contract';
import { formatAttributeNumber } from '../components/attribute-number.ts';
import { readRange, selectedValues, setRange, toggleValue } from './listing-params.ts';

type Change = (next: URLSearchParams) => void;

function CheckboxGroup({
  legend,
  name,
  values,
  params,
  onChange,
}: {
  legend: string;
  name: string;
  values: FacetValue[];
  params: URLSearchParams;
  onChange: Change;
}) {
  const selected = selectedValues(params, name);
  if (values.length === 0) return null;
  return (
    <fieldset className="cat-facet">
      <legend>{legend}</legend>
      <ul>
        {values.map((value) => {
          const checked = selected.includes(value.value);
          return (
            <li key={value.value}>
              <label className={value.count === 0 && !checked ? 'cat-facet__empty' : undefined}>
                <input
                  type="checkbox"
                  checked={checked}
                  disabled={value.count === 0 && !checked}
                  onChange={() => onChange(toggleValue(params, name, value.value))}
                />
                <span>{value.label}</span> <span className="cat-facet__count">({value.count})</span>
              </label>
            </li>
          );
        })}
      </ul>
    </fieldset>
  );
}

/** A "from – to" range in the given unit; applied on submit, with the numeric cleaning of requirements R5.3. */
export function RangeFilter({
  legend,
  name,
  unit,
  min,
  max,
  params,
  onChange,
}: {
  legend: string;
  name: string;
  unit: string | null;
  /** Bounds in thousandths of the unit, shown as placeholders. */
  min: number;
  max: number;
  params: URLSearchParams;
  onChange: Change;
}) {
  const id = useId();
  const current = readRange(params, name);
  const [from, setFrom] = useState(current.min);
  const [to, setTo] = useState(current.max);
  const suffix = unit ? ` (${unit})` : '';
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onChange(setRange(params, name, from.replace(/\.$/, ''), to.replace(/\.$/, '')));
  };
  return (
    <form className="cat-facet cat-range" onSubmit={submit} aria-labelledby={`${id}-legend`}>
      <p id={`${id}-legend`} className="cat-facet__legend">
        {legend}
        {suffix}
      </p>
      <div className="cat-range__inputs">
        <label>
          <span className="visually-hidden">
            {legend} od{suffix}
          </span>
          <input
            inputMode="decimal"
            placeholder={`od ${formatAttributeNumber(min)}`}
            value={from}
            onChange={(event) => setFrom(cleanNumericInput(event.target.value))}
          />
        </label>
        <span aria-hidden="true">–</span>
        <label>
          <span className="visually-hidden">
            {legend} do{suffix}
          </span>
          <input
            inputMode="decimal"
            placeholder={`do ${formatAttributeNumber(max)}`}
            value={to}
            onChange={(event) => setTo(cleanNumericInput(event.target.value))}
          />
        </label>
        <button type="submit" className="button" aria-label={`Použiť filter ${legend}`}>
          Použiť
        </button>
      </div>
    </form>
  );
}

/** Facets of a listing: brand, availability, price and the shown attributes, each value with its count. */
export function FilterPanel({
  facets,
  params,
  onChange,
  showBrands = true,
}: {
  facets: ListingFacets;
  params: URLSearchParams;
  onChange: Change;
  showBrands?: boolean;
}) {
  const rangeKey = params.toString();
  return (
    <div className="cat-filters__body">
      {facets.price && (
        <RangeFilter
          key={`price:${rangeKey}`}
          legend="Cena s DPH"
          name="price"
          unit="€"
          min={Math.floor(facets.price.min / 1000) * 1000}
          max={Math.ceil(facets.price.max / 1000) * 1000}
          params={params}
          onChange={onChange}
        />
      )}
      <CheckboxGroup legend="Dostupnosť" name="avail" values={facets.availability} params={params} onChange={onChange} />
      {showBrands && <CheckboxGroup legend="Značka" name="brands" values={facets.brands} params={params} onChange={onChange} />}
      {facets.attributes.map((attribute) =>
        attribute.kind === 'values' ? (
          <CheckboxGroup
            key={attribute.attr_id}
            legend={attribute.attr_name}
            name={`f${attribute.attr_id}`}
            values={attribute.values}
            params={params}
            onChange={onChange}
          />
        ) : attribute.min < attribute.max ? (
          <RangeFilter
            key={`${attribute.attr_id}:${rangeKey}`}
            legend={attribute.attr_name}
            name={`r${attribute.attr_id}`}
            unit={attribute.unit_name}
            min={attribute.min}
            max={attribute.max}
            params={params}
            onChange={onChange}
          />
        ) : null,
      )}
    </div>
  );
}
