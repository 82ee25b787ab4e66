/**
 * The account area's contract (issue 6): profile, addresses, order history
 * with states, withdrawal from the contract, complaints, and the checkout
 * prefill. Money in thousandths of a euro; timestamps ISO 8601 UTC.
 */
import type { CheckoutContact, CompanyData, OrderDetail, PostalAddress } from './domain.ts';
import type { Paged } from './api.ts';

export type Profile = {
  id: number;
  email: string;
  name: string;
  /** +421xxxxxxxxx, or '' when not given. */
  phone: string;
  /** Null: the shopper buys as a private person. */
  company: CompanyData | null;
  newsletter: boolean;
  createdAt: string;
  /** A new e-mail waiting for the link sent to it; null when none. */
  pendingEmail: string | null;
};

export type ProfileInput = {
  name: string;
  email: string;
  phone: string;
  company: CompanyData | null;
  newsletter: boolean;
  /** Needed only when the e-mail changes. */
  currentPassword?: string;
};

export type AddressKind = 'billing' | 'delivery';

export type AddressInput = PostalAddress & {
  kind: AddressKind;
  /** The person (or company) at the address. */
  name: string;
  isDefault: boolean;
};

export type Address = AddressInput & { id: number };

/** What the checkout's contact step takes from the account: profile, default addresses. */
export type CheckoutPrefill = {
  contact: CheckoutContact;
};

/** Order states (issue 6) in their usual order; cancelled and withdrawn end an order. */
export type OrderState = 'received' | 'paid' | 'shipped' | 'delivered' | 'cancelled' | 'withdrawn';

export type OrderStateEntry = { state: OrderState; at: string; note: string };

export type AccountOrderSummary = {
  number: string;
  token: string;
  createdAt: string;
  state: OrderState;
  paymentStatus: OrderDetail['paymentStatus'];
  total: number;
  itemCount: number;
};

/** A line of an order in the account, with the id complaints and withdrawals name it by. */
export type AccountOrderLine = OrderDetail['lines'][number] & {
  itemId: number;
  /** The line was withdrawn from (odstúpenie od zmluvy). */
  withdrawn: boolean;
};

export type Withdrawal = {
  id: number;
  createdAt: string;
  itemIds: number[];
  /** What the shop refunds, thousandths. */
  refund: number;
  wholeOrder: boolean;
};

export type AccountOrderDetail = Omit<OrderDetail, 'lines'> & {
  lines: AccountOrderLine[];
  state: OrderState;
  history: OrderStateEntry[];
  deliveredAt: string | null;
  /** Last day (ISO) of the 14-day withdrawal period, null when withdrawal does not apply. */
  withdrawalUntil: string | null;
  canWithdraw: boolean;
  /** Why withdrawal is not possible (Slovak), null when it is. */
  withdrawalBlockedReason: string | null;
  canComplain: boolean;
  withdrawals: Withdrawal[];
};

export type ComplaintReason = 'defect' | 'damaged' | 'wrong_item' | 'missing_part' | 'other';
export type ComplaintState = 'received' | 'in_progress' | 'accepted' | 'rejected';

export type ComplaintPhoto = { id: number; contentType: string; size: number };

export type Complaint = {
  id: number;
  orderNumber: string;
  orderToken: string;
  itemId: number;
  productName: string;
  reason: ComplaintReason;
  description: string;
  state: ComplaintState;
  createdAt: string;
  /** The shop settles the complaint by this time (30 days). */
  settleBy: string;
  resolution: string;
  photos: ComplaintPhoto[];
};

export type AccountCalls = {
  'POST /api/account/register': {
    body: { email: string; password: string; name: string; newsletter?: boolean };
    answer: { data: { ok: true; message: string } };
  };
  'POST /api/account/password-reset': { body: { email: string }; answer: { data: { ok: true; message: string } } };
  'POST /api/account/password-reset/confirm': { body: { token: string; password: string }; answer: { data: { ok: true } } };
  'GET /api/account/profile': { answer: { data: Profile } };
  'PUT /api/account/profile': { body: ProfileInput; answer: { data: Profile } };
  'POST /api/account/email/confirm': { body: { token: string }; answer: { data: Profile } };
  /** Ends every other session; answers a fresh token for this one. */
  'POST /api/account/password': { body: { currentPassword: string; newPassword: string }; answer: { data: { token: string } } };
  'POST /api/account/delete': { body: { password: string }; answer: { data: { ok: true } } };
  'GET /api/account/addresses': { answer: { data: Address[] } };
  'POST /api/account/addresses': { body: AddressInput; answer: { data: Address } };
  'PUT /api/account/addresses/:id': { body: AddressInput; answer: { data: Address } };
  'DELETE /api/account/addresses/:id': { answer: { data: { ok: true } } };
  'GET /api/account/checkout-prefill': { answer: { data: CheckoutPrefill } };
  'GET /api/account/orders': { query: { page?: number }; answer: Paged<AccountOrderSummary> };
  'GET /api/account/orders/:token': { answer: { data: AccountOrderDetail } };
  'POST /api/account/orders/:token/withdraw': {
    /** The lines to withdraw from; all lines of the order for a whole withdrawal. `confirm` must be true. */
    body: { itemIds: number[]; confirm: boolean };
    answer: { data: AccountOrderDetail };
  };
  'GET /api/account/complaints': { answer: { data: Complaint[] } };
  /** multipart/form-data: orderToken, itemId, reason, description, photos (0–5 files, JPEG/PNG/WebP, 5 MB each). */
  'POST /api/account/complaints': { answer: { data: Complaint } };
  // operator (X-Operator-Token)
  'POST /api/operator/orders/:number/state': { body: { state: OrderState; note?: string }; answer: { data: AccountOrderDetail } };
  'POST /api/operator/complaints/:id/state': { body: { state: ComplaintState; resolution?: string }; answer: { data: Complaint } };
};
