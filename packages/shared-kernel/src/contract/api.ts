/**
 * The HTTP contract between the browser parts and the API, by call ("METHOD /path": params,
 * query, body, answer). Paths of spec section 7 keep their exact shape; the rest is ours.
 * Every error answer is ApiErrorBody with a 4xx/5xx status.
 */
import type { AccountCalls } from './account-calls.ts';
import type { CatalogCalls } from './catalog-calls.ts';
import type { CheckoutCalls } from './checkout-calls.ts';
import type { ContentCalls } from './content-calls.ts';
import type { OpsCalls } from './ops-calls.ts';

export type { AccountCalls, CatalogCalls, CheckoutCalls, ContentCalls, OpsCalls };

/** Every call of the API. */
export type ApiCalls = CatalogCalls & ContentCalls & AccountCalls & CheckoutCalls & OpsCalls;
