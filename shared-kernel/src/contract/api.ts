/**
 * The HTTP contract between the browser parts and the API, by call ("METHOD /path": params,
 * query, body, answer). Paths of requirements R7 keep their exact shape; the rest is ours.
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

/** The name of a call: its method and path pattern, e.g. 'GET /api/product/:url'. */
export type CallName = keyof ApiCalls;

/** The calls whose answer is a file (PDF, photo), outside the JSON contract: their params. */
export type DownloadCalls = {
  /** An order's invoice: a guest's by the order token, a signed-in shopper's own with the session. */
  'GET /api/orders/:token/invoice': { params: { token: string } };
  /** A complaint's photo, served only to its owner. */
  'GET /api/account/complaints/:id/photos/:photoId': { params: { id: number; photoId: number } };
  /** An order's invoice for a signed-in operator, on the operator origin. */
  'GET /api/operator/orders/:number/invoice': { params: { number: string } };
};
export type DownloadName = keyof DownloadCalls;
