/**
 * A listing's state in the URL: page, sort and the filters, in the same keys the API takes
 * (brands, avail, price, f{attr_id}, r{attr_id}; several values joined with '|'), so a
 * filtered page can be shared and the back button walks through the shopper's choices.
 */
import type { ListingFilterQuery, ProductSort } from '@shop/shared-kernel/contract';

export const SEPARATOR = '|';

export const sortLabels: Record<ProductSort, string> = {
  popular: 'Najpredávanejšie',
  'price-asc': 'Od najlacnejšieho',
  'price-desc': 'Od najdrahšieho',
  name: 'Podľa názvu',
  newest: 'Najnovšie',
};

const FILTER_KEY = /^(brands|avail|price|f[1-9][0-9]{0,8}|r[1-9][0-9]{0,8})$/;

export function readSort(params: URLSearchParams): ProductSort {
  const value = params.get('sort');
  return value && value in sortLabels ? (value as ProductSort) : 'popular';
}

export function readPage(params: URLSearchParams): number {
  const page = Number(params.get('page') ?? '1');
  return Number.isInteger(page) && page > 0 ? page : 1;
}

/** The filter part of the URL, as the API takes it. */
export function readFilters(params: URLSearchParams): ListingFilterQuery {
  const out: Record<string, string> = {};
  for (const [key, value] of params) if (FILTER_KEY.test(key) && value) out[key] = value;
  return out as ListingFilterQuery;
}

export function activeFilterCount(params: URLSearchParams): number {
  let count = 0;
  for (const [key, value] of params) {
    if (!FILTER_KEY.test(key) || !value) continue;
    count += key === 'price' || key.startsWith('r') ? 1 : value.split(SEPARATOR).filter(Boolean).length;
  }
  return count;
}

export function selectedValues(params: URLSearchParams, key: string): string[] {
  return (params.get(key) ?? '').split(SEPARATOR).filter(Boolean);
}

/** A copy without the page, so a changed filter or sort starts at page 1. */
function fresh(params: URLSearchParams): URLSearchParams {
  const next = new URLSearchParams(params);
  next.delete('page');
  return next;
}

export function toggleValue(params: URLSearchParams, key: string, value: string): URLSearchParams {
  const next = fresh(params);
  const values = selectedValues(params, key);
  const updated = values.includes(value) ? values.filter((v) => v !== value) : [...values, value];
  if (updated.length > 0) next.set(key, updated.join(SEPARATOR));
  else next.delete(key);
  return next;
}

/** Sets "min-max" (either may be empty); both empty removes the filter. */
export function setRange(params: URLSearchParams, key: string, min: string, max: string): URLSearchParams {
  const next = fresh(params);
  if (min === '' && max === '') next.delete(key);
  else next.set(key, `${min}-${max}`);
  return next;
}

export function readRange(params: URLSearchParams, key: string): { min: string; max: string } {
  const value = params.get(key);
  if (!value || !value.includes('-')) return { min: '', max: '' };
  const [min = '', max = ''] = value.split('-');
  return { min, max };
}

export function setSort(params: URLSearchParams, sort: ProductSort): URLSearchParams {
  const next = fresh(params);
  if (sort === 'popular') next.delete('sort');
  else next.set('sort', sort);
  return next;
}

export function clearFilters(params: URLSearchParams): URLSearchParams {
  const next = fresh(params);
  for (const key of [...next.keys()]) if (FILTER_KEY.test(key)) next.delete(key);
  return next;
}
