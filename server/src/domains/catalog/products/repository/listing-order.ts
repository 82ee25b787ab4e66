/**
 * The listing's sorts and each one's order, ties by id: the SQL listings (catalog.repository.ts),
 * category_listing's and the sale's indexes (migrations category-listing, sale-listing-orders) and
 * the in-memory listing index (listing-index.ts) all follow exactly these orders.
 */
import type { ProductSort } from '@shop/shared-kernel/contract';

export const LISTING_ORDER: Record<ProductSort, ['p_popularity' | 'p_price' | 'p_name_sort' | 'p_created_at' | 'p_id', 'asc' | 'desc'][]> =
  {
    popular: [
      ['p_popularity', 'desc'],
      ['p_id', 'asc'],
    ],
    'price-asc': [
      ['p_price', 'asc'],
      ['p_id', 'asc'],
    ],
    'price-desc': [
      ['p_price', 'desc'],
      ['p_id', 'asc'],
    ],
    name: [
      ['p_name_sort', 'asc'],
      ['p_id', 'asc'],
    ],
    newest: [
      ['p_created_at', 'desc'],
      ['p_id', 'desc'],
    ],
  };

/** Every sort, in LISTING_ORDER's order. */
export const PRODUCT_SORTS = Object.keys(LISTING_ORDER) as readonly ProductSort[];
