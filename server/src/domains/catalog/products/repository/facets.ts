/**
 * Repository layer: a listing's facets as the panel shows them (shapeFacets), from counts however
 * they were made: kept per category (facet-counts.ts) or in memory (listing-index.ts).
 */
import type { Availability, AttributeFacet, FacetValue, ListingFacets } from '@shop/shared-kernel/contract';
import { LISTING_LIMITS } from '@shop/shared-kernel/schemas';

/**
 * At most this many values of one string attribute (the most frequent ones): the most a shopper
 * can tick in one filter, so what the panel offers always fits the request limits.
 */
const MAX_VALUES = LISTING_LIMITS.valuesPerFilter;

const AVAILABILITY_ORDER: Availability[] = ['in_stock', 'to_order', 'unavailable'];
const AVAILABILITY_LABEL: Record<Availability, string> = {
  in_stock: 'Skladom',
  to_order: 'Na objednávku',
  unavailable: 'Nedostupné',
};

export type AttrRow = {
  attr_id: number;
  attr_name: string;
  unit_name: string | null;
  av_string: string | null;
  n: number;
  lo: number | null;
  hi: number | null;
};

/** The counts behind a listing's facets, however they were counted (over the products, or summed per category). */
export type FacetCounts = {
  brands: { b_url: string; b_name: string; n: number }[];
  availability: { v_availability: Availability; n: number }[];
  price: { lo: number | null; hi: number | null };
  attributes: AttrRow[];
};

/** The facets as the panel shows them: availability in its order, attributes by id, the most frequent values of each. */
export function shapeFacets(counts: FacetCounts): ListingFacets {
  const rows = counts.attributes;
  const byAttr = new Map<number, AttrRow[]>();
  for (const row of rows) {
    const list = byAttr.get(row.attr_id);
    if (list) list.push(row);
    else byAttr.set(row.attr_id, [row]);
  }
  const attributes: AttributeFacet[] = [];
  for (const attrId of [...byAttr.keys()].sort((a, b) => a - b)) {
    const group = byAttr.get(attrId)!;
    const first = group[0]!;
    const numeric = group.filter((r) => r.av_string === null && r.lo !== null);
    const strings = group.filter((r) => r.av_string !== null);
    if (strings.length === 0 && numeric.length > 0) {
      attributes.push({
        kind: 'range',
        attr_id: attrId,
        attr_name: first.attr_name,
        unit_name: first.unit_name,
        min: Math.min(...numeric.map((r) => Number(r.lo))),
        max: Math.max(...numeric.map((r) => Number(r.hi))),
        count: numeric.reduce((sum, r) => sum + Number(r.n), 0),
      });
    } else if (strings.length > 0) {
      const values: FacetValue[] = strings
        .map((r) => ({ value: r.av_string!, label: r.av_string!, count: Number(r.n) }))
        .sort((a, b) => b.count - a.count || a.label.localeCompare(b.label, 'sk'))
        .slice(0, MAX_VALUES)
        .sort((a, b) => a.label.localeCompare(b.label, 'sk'));
      attributes.push({ kind: 'values', attr_id: attrId, attr_name: first.attr_name, unit_name: first.unit_name, values });
    }
  }

  const availabilityCounts = new Map(counts.availability.map((r) => [r.v_availability, Number(r.n)]));
  return {
    brands: [...counts.brands]
      .sort((a, b) => a.b_name.localeCompare(b.b_name, 'sk'))
      .map((b) => ({ value: b.b_url, label: b.b_name, count: Number(b.n) })),
    availability: AVAILABILITY_ORDER.filter((a) => availabilityCounts.has(a)).map((a) => ({
      value: a,
      label: AVAILABILITY_LABEL[a],
      count: availabilityCounts.get(a)!,
    })),
    price: counts.price.lo !== null && counts.price.hi !== null ? { min: Number(counts.price.lo), max: Number(counts.price.hi) } : null,
    attributes,
  };
}
