/**
 * The shopper's account: the signed-in user, profile, addresses, order history with states and
 * withdrawal from the contract, complaints, the checkout prefill, coupons. Money in thousandths of
 * a euro (unless said otherwise); timestamps ISO 8601 UTC.
 *
 * The request shapes (`…Input`) carry the limits the API checks (lengths, enums); the rules that
 * need more than a schema (e-mail, phone, PSČ, IČO formats) are in the kernel's account and
 * checkout rules and run on both sides.
 */
import { Type, type Static } from '@sinclair/typebox';
import { MAX_RECORD_ID } from './record-id.ts';
import { CheckoutContact, CompanyData, Coupon, OrderDetail, OrderLine, OrderPaymentStatus } from './checkout-types.ts';

/** A database id: a positive 32-bit integer (PostgreSQL's integer refuses more). */
export const RecordId = Type.Integer({ minimum: 1, maximum: MAX_RECORD_ID });

/** An e-mail address as typed: the rules check its form, the API stores it lower-case. */
export const EmailInput = Type.String({ minLength: 3, maxLength: 254 });
/** A password as typed; the length and strength rules are the kernel's `checkPassword`. */
export const PasswordInput = Type.String({ minLength: 1, maxLength: 256 });
/** The token of a one-time e-mailed link (password reset, e-mail change). */
export const LinkToken = Type.String({ minLength: 1, maxLength: 200 });

/** The signed-in user. */
export type User = Static<typeof User>;
export const User = Type.Object({
  id: RecordId,
  email: Type.String(),
  name: Type.String(),
});

/** Answer of POST /api/coupon/validate (requirements R7.2). */
export type CouponValidation = Static<typeof CouponValidation>;
export const CouponValidation = Type.Object({
  valid: Type.Boolean(),
  /** Why the coupon was refused, or that it was applied (Slovak). */
  message: Type.String(),
  coupon: Type.Union([Coupon, Type.Null()]),
  /** Discount in euros; the kernel turns it into thousandths (requirements R9.5). */
  discount: Type.Number({ description: 'Zľava v eurách' }),
});

/** Company data as the profile form sends it (IČO, DIČ, IČ DPH; spaces are removed by the API). */
export const CompanyInput = Type.Object({
  name: Type.String({ maxLength: 160 }),
  /** IČO, eight digits. */
  ico: Type.String({ maxLength: 12 }),
  /** DIČ, ten digits. */
  dic: Type.String({ maxLength: 14 }),
  /** IČ DPH, "SK" and ten digits; empty when the company is not a VAT payer. */
  icDph: Type.String({ maxLength: 16 }),
});

export type Profile = Static<typeof Profile>;
export const Profile = Type.Object({
  id: RecordId,
  email: Type.String(),
  name: Type.String(),
  /** +421xxxxxxxxx, or '' when not given. */
  phone: Type.String({ description: '+421xxxxxxxxx alebo prázdny' }),
  /** Null: the shopper buys as a private person. */
  company: Type.Union([CompanyData, Type.Null()], { description: 'null: súkromná osoba' }),
  newsletter: Type.Boolean(),
  createdAt: Type.String(),
  /** A new e-mail waiting for the link sent to it; null when none. */
  pendingEmail: Type.Union([Type.String(), Type.Null()], { description: 'Nový e-mail čakajúci na potvrdenie odkazom' }),
});

export type ProfileInput = Static<typeof ProfileInput>;
export const ProfileInput = Type.Object({
  name: Type.String({ maxLength: 120 }),
  email: EmailInput,
  phone: Type.String({ maxLength: 32 }),
  /** Null: the shopper buys as a private person. */
  company: Type.Union([Type.Null(), CompanyInput]),
  newsletter: Type.Boolean(),
  /** Needed only when the e-mail changes. */
  currentPassword: Type.Optional(Type.String({ maxLength: 256, description: 'Potrebné len pri zmene e-mailu' })),
});

export type AddressKind = Static<typeof AddressKind>;
export const AddressKind = Type.Union([Type.Literal('billing'), Type.Literal('delivery')]);

export type AddressInput = Static<typeof AddressInput>;
export const AddressInput = Type.Object({
  kind: AddressKind,
  /** The person (or company) at the address. */
  name: Type.String({ maxLength: 160, description: 'Osoba alebo firma na adrese' }),
  street: Type.String({ maxLength: 120 }),
  city: Type.String({ maxLength: 80 }),
  /** PSČ, five digits (a space after the third is accepted on input). */
  zip: Type.String({ maxLength: 12 }),
  /** The default address of its kind (one per kind; the checkout starts from it). */
  isDefault: Type.Boolean(),
});

export type Address = Static<typeof Address>;
export const Address = Type.Composite([AddressInput, Type.Object({ id: RecordId })]);

/** What the checkout's contact step takes from the account: profile, default addresses. */
export type CheckoutPrefill = Static<typeof CheckoutPrefill>;
export const CheckoutPrefill = Type.Object({
  contact: CheckoutContact,
});

/** Order states in their usual order; cancelled and withdrawn end an order. */
export type OrderState = Static<typeof OrderState>;
export const OrderState = Type.Union([
  Type.Literal('received'),
  Type.Literal('paid'),
  Type.Literal('shipped'),
  Type.Literal('delivered'),
  Type.Literal('cancelled'),
  Type.Literal('withdrawn'),
]);

/** One step of an order's history. */
export type OrderStateEntry = Static<typeof OrderStateEntry>;
export const OrderStateEntry = Type.Object({
  state: OrderState,
  at: Type.String(),
  /** The operator's or the shopper's note, '' when none. */
  note: Type.String(),
});

export type AccountOrderSummary = Static<typeof AccountOrderSummary>;
export const AccountOrderSummary = Type.Object({
  number: Type.String(),
  token: Type.String(),
  createdAt: Type.String(),
  state: OrderState,
  paymentStatus: OrderPaymentStatus,
  total: Type.Number(),
  /** How many lines the order has. */
  itemCount: Type.Integer(),
});

/** A line of an order in the account, with the id complaints and withdrawals name it by. */
export type AccountOrderLine = Static<typeof AccountOrderLine>;
export const AccountOrderLine = Type.Composite([
  OrderLine,
  Type.Object({
    itemId: RecordId,
    /** The line was withdrawn from (odstúpenie od zmluvy). */
    withdrawn: Type.Boolean({ description: 'Od položky zákazník odstúpil' }),
  }),
]);

/** A withdrawal from the contract (odstúpenie od zmluvy) for some or all lines of an order. */
export type Withdrawal = Static<typeof Withdrawal>;
export const Withdrawal = Type.Object({
  id: RecordId,
  createdAt: Type.String(),
  itemIds: Type.Array(RecordId),
  /** What the shop refunds, thousandths. */
  refund: Type.Number({ description: 'Suma na vrátenie, tisíciny eura' }),
  wholeOrder: Type.Boolean(),
});

export type AccountOrderDetail = Static<typeof AccountOrderDetail>;
export const AccountOrderDetail = Type.Composite([
  Type.Omit(OrderDetail, ['lines']),
  Type.Object({
    lines: Type.Array(AccountOrderLine),
    state: OrderState,
    history: Type.Array(OrderStateEntry),
    deliveredAt: Type.Union([Type.String(), Type.Null()]),
    /** Last day (ISO) of the 14-day withdrawal period, null when withdrawal does not apply. */
    withdrawalUntil: Type.Union([Type.String(), Type.Null()], { description: 'Posledný deň 14-dňovej lehoty na odstúpenie' }),
    canWithdraw: Type.Boolean(),
    /** Why withdrawal is not possible (Slovak), null when it is. */
    withdrawalBlockedReason: Type.Union([Type.String(), Type.Null()], { description: 'Prečo odstúpenie nie je možné; null, keď je' }),
    canComplain: Type.Boolean(),
    withdrawals: Type.Array(Withdrawal),
  }),
]);

export type ComplaintReason = Static<typeof ComplaintReason>;
export const ComplaintReason = Type.Union([
  Type.Literal('defect'),
  Type.Literal('damaged'),
  Type.Literal('wrong_item'),
  Type.Literal('missing_part'),
  Type.Literal('other'),
]);

export type ComplaintState = Static<typeof ComplaintState>;
export const ComplaintState = Type.Union([
  Type.Literal('received'),
  Type.Literal('in_progress'),
  Type.Literal('accepted'),
  Type.Literal('rejected'),
]);

/** A photo of a complaint (served only to the complaint's owner). */
export type ComplaintPhoto = Static<typeof ComplaintPhoto>;
export const ComplaintPhoto = Type.Object({
  id: RecordId,
  contentType: Type.String(),
  /** Bytes. */
  size: Type.Integer(),
});

/** A complaint (reklamácia) of one line of a delivered order. */
export type Complaint = Static<typeof Complaint>;
export const Complaint = Type.Object({
  id: RecordId,
  orderNumber: Type.String(),
  orderToken: Type.String(),
  itemId: RecordId,
  /** "Product (variant)". */
  productName: Type.String(),
  reason: ComplaintReason,
  description: Type.String(),
  state: ComplaintState,
  createdAt: Type.String(),
  /** The shop settles the complaint by this time (30 days). */
  settleBy: Type.String({ description: 'Termín vybavenia (30 dní)' }),
  /** The operator's resolution, '' until there is one. */
  resolution: Type.String(),
  photos: Type.Array(ComplaintPhoto),
});

/** The loyalty programme: one point for every whole euro of paid orders. */
export type LoyaltyPoints = Static<typeof LoyaltyPoints>;
export const LoyaltyPoints = Type.Object({
  points: Type.Integer(),
  /** How many of the shopper's orders are paid. */
  paidOrders: Type.Integer(),
  /** The total of the paid orders with VAT, thousandths. */
  paidTotal: Type.Number(),
  pointsPerEuro: Type.Number(),
});
