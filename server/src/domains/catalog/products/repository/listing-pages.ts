/**
 * Repository layer: a page of a listing from its evaluated categories (listing-bitsets.ts): the
 * categories' presorted orders merged, skipping the products not listed, until it has the page.
 */
import type { ProductSort } from '@shop/shared-kernel/contract';
import type { Evaluated } from './listing-bitsets.ts';
import { before, hasBit, popcount } from './listing-data.ts';
import { PRODUCT_SORTS } from './listing-order.ts';

/** The products a listing shows in all its categories. */
export function listedTotal(evaluated: Evaluated[]): number {
  let total = 0;
  for (const { data, listed } of evaluated) for (let w = 0; w < data.words; w++) total += popcount(listed[w]!);
  return total;
}

/**
 * The ids of the page's products in the sort's order, of `total` listed. Each head is its category's
 * next listed product, the categories in a binary heap by their heads (comparing every category's
 * head for each product made late pages of a large catalog slow). A page in the second half is
 * merged from the end, backwards, so the middle page is the slowest and the last one is as quick as
 * the first.
 */
export function pageIds(evaluated: Evaluated[], total: number, sort: ProductSort, page: { limit: number; offset: number }): number[] {
  if (page.offset >= total) return [];
  const s = PRODUCT_SORTS.indexOf(sort);
  const end = Math.min(total, page.offset + page.limit);
  const backwards = page.offset > total - end;
  const step = backwards ? -1 : 1;
  const heads = evaluated.map(({ data }) => (backwards ? data.size : -1));
  const advance = (c: number) => {
    const { data, listed } = evaluated[c]!;
    const order = data.order[s]!;
    let k = heads[c]! + step;
    while (k >= 0 && k < data.size && !hasBit(listed, order[k]!)) k += step;
    heads[c] = k;
  };
  const done = (c: number) => heads[c]! < 0 || heads[c]! >= evaluated[c]!.data.size;
  const headBefore = (a: number, b: number) =>
    before(
      sort,
      evaluated[a]!.data,
      evaluated[a]!.data.order[s]![heads[a]!]!,
      evaluated[b]!.data,
      evaluated[b]!.data.order[s]![heads[b]!]!,
    );
  const first = backwards ? (a: number, b: number) => headBefore(b, a) : headBefore;
  const heap: number[] = [];
  const siftDown = (from: number) => {
    for (let i = from; ;) {
      const left = 2 * i + 1;
      if (left >= heap.length) return;
      const child = left + 1 < heap.length && first(heap[left + 1]!, heap[left]!) ? left + 1 : left;
      if (!first(heap[child]!, heap[i]!)) return;
      [heap[i], heap[child]] = [heap[child]!, heap[i]!];
      i = child;
    }
  };
  evaluated.forEach((_, c) => {
    advance(c);
    if (!done(c)) heap.push(c);
  });
  for (let i = (heap.length >> 1) - 1; i >= 0; i--) siftDown(i);
  // Forwards the products [offset, end) are taken after `offset` others; backwards after `total - end`.
  const skip = backwards ? total - end : page.offset;
  const ids: number[] = [];
  for (let taken = 0; taken < skip + (end - page.offset) && heap.length > 0; taken++) {
    const best = heap[0]!;
    const data = evaluated[best]!.data;
    if (taken >= skip) ids.push(data.pId[data.order[s]![heads[best]!]!]!);
    advance(best);
    if (done(best)) {
      // Its category is done: the last of the heap takes its place.
      const last = heap.pop()!;
      if (heap.length > 0) heap[0] = last;
    }
    siftDown(0);
  }
  if (backwards) ids.reverse();
  return ids;
}
