/** Checkout, orders, payments and pickup points: the calls, their request limits and answers. */
import { Type, type Static } from '@sinclair/typebox';
import { defineCalls, type CallTypes } from './common.ts';
import { BASKET_LIMITS } from './basket-limits.ts';
import { MAX_RECORD_ID } from './record-id.ts';
import { CheckoutQuote, OrderDetail, PaymentRefund, PickupPoint, PlacedOrder, ShippingPriceList } from './checkout-types.ts';

/** A database id: a positive 32-bit integer. */
const Id = Type.Integer({ minimum: 1, maximum: MAX_RECORD_ID });
/** An order's number as printed on documents (year and sequence). */
const OrderNumber = Type.Object({ number: Type.String({ pattern: '^[0-9]{6,16}$' }) });

export { BASKET_LIMITS };

/** Pickup points: at most this many answers, and the search text's length. */
export const PICKUP_POINT_LIMITS = { results: 20, queryLength: 60 } as const;

export type CheckoutLineInput = Static<typeof CheckoutLineInput>;
export const CheckoutLineInput = Type.Object({ v_id: Id, amount: Type.Integer({ minimum: 1, maximum: BASKET_LIMITS.lineAmount }) });

/** Repeated lines are allowed (they are merged before the limits apply), up to twice the distinct-line limit. */
const Lines = Type.Array(CheckoutLineInput, { minItems: 1, maxItems: BASKET_LIMITS.lines * 2 });

const text = (maxLength: number, minLength = 0) => Type.String({ minLength, maxLength });
const Code = Type.Union([Type.String({ maxLength: 32 }), Type.Null()]);
const CouponCode = Type.Union([Type.String({ maxLength: 64 }), Type.Null()]);
const AddressInput = { street: text(120), city: text(80), zip: text(12) };

/** The contact step as sent: the rules (kernel checkout-rules) check and normalise it on the server again. */
const ContactInput = Type.Object({
  email: text(254),
  phone: text(32),
  name: text(120),
  billing: Type.Object(AddressInput),
  company: Type.Union([Type.Null(), Type.Object({ name: text(160), ico: text(12), dic: text(14), icDph: text(16) })]),
  delivery: Type.Union([Type.Null(), Type.Object({ name: text(120), ...AddressInput })]),
});

export type QuoteBody = Static<typeof QuoteBody>;
export const QuoteBody = Type.Object({
  lines: Lines,
  shippingCode: Type.Optional(Code),
  paymentCode: Type.Optional(Code),
  /** Only with a Bearer token; validated for the token's user. */
  couponCode: Type.Optional(CouponCode),
});

export type PlaceOrderBody = Static<typeof PlaceOrderBody>;
export const PlaceOrderBody = Type.Object({
  /** Random, one per attempt to place an order: a retried request or a double click makes one order. */
  idempotencyKey: Type.String({ minLength: 16, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' }),
  lines: Lines,
  contact: ContactInput,
  shippingCode: text(32, 1),
  paymentCode: text(32, 1),
  couponCode: CouponCode,
  /** When sent, must be the token's user; never trusted otherwise. */
  userId: Type.Optional(Type.Union([Id, Type.Null()])),
  note: text(1000),
  termsAccepted: Type.Boolean(),
  /** The total the shopper saw; a different server total is refused (409) instead of charged. */
  expectedTotal: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000_000 })),
  /** Required with shipping "pickup-point": the code of the chosen pickup point. */
  pickupPointCode: Type.Optional(Type.Union([Type.String({ maxLength: 20 }), Type.Null()])),
});

/** The 32-character order token: the capability of the thank-you and payment pages. */
export const OrderToken = Type.Object({ token: Type.String({ pattern: '^[A-Za-z0-9]{32}$' }) });

export const checkoutCalls = defineCalls({
  'GET /api/checkout/methods': { summary: 'Cenník dopravy a platby', answer: Type.Object({ data: ShippingPriceList }) },
  'POST /api/checkout/quote': {
    summary: 'Cena košíka podľa servera (doprava, platba, kupón, DPH)',
    body: QuoteBody,
    answer: Type.Object({ data: CheckoutQuote }),
  },
  /** 201 for a new order, 200 when the same idempotency key placed it before. */
  'POST /api/orders': {
    summary: 'Odoslanie objednávky (idempotentné)',
    body: PlaceOrderBody,
    answer: Type.Object({ data: PlacedOrder }),
    status: 201,
  },
  /** Pickup points matching a town, PSČ or name (q), nearest first when a position is given; at most 20. */
  'GET /api/pickup-points': {
    summary: 'Výdajné miesta',
    // A position is both coordinates or neither; Slovakia and around it only.
    query: Type.Object(
      {
        q: Type.Optional(Type.String({ maxLength: PICKUP_POINT_LIMITS.queryLength })),
        lat: Type.Optional(Type.Number({ minimum: 45, maximum: 52 })),
        lon: Type.Optional(Type.Number({ minimum: 14, maximum: 25 })),
      },
      { additionalProperties: false, maxProperties: 3, dependencies: { lat: ['lon'], lon: ['lat'] } },
    ),
    answer: Type.Object({ data: Type.Array(PickupPoint) }),
  },
  'GET /api/orders/:token': { summary: 'Objednávka podľa jej tokenu', params: OrderToken, answer: Type.Object({ data: OrderDetail }) },
  'POST /api/orders/:token/pay': { summary: 'Nová platba kartou', params: OrderToken, answer: Type.Object({ data: PlacedOrder }) },
  'GET /api/operator/payments/refunds': {
    summary: 'Platby na vrátenie (operátor)',
    answer: Type.Object({ data: Type.Array(PaymentRefund) }),
  },
  /** A refund the gateway refused, made by hand at the gateway: the operator records it (audited with the note). */
  'POST /api/operator/payments/:id/refunded': {
    summary: 'Zaznamená ručne vrátenú platbu, ktorú brána odmietla (operátor)',
    params: Type.Object({ id: Type.Integer({ minimum: 1, maximum: MAX_RECORD_ID }) }),
    body: Type.Object({ note: Type.String({ minLength: 3, maxLength: 500 }) }, { additionalProperties: false }),
    answer: Type.Object({ data: PaymentRefund }),
  },

  // The operator's document tools (the console's counterparts of the utility routes /pdf, /generate,
  // /email, /send, /paid), on the operator origin only. The invoice itself (GET …/invoice) is a PDF,
  // outside the JSON contract.
  'GET /api/operator/orders/:number': {
    summary: 'Objednávka podľa čísla (operátor)',
    params: OrderNumber,
    answer: Type.Object({ data: OrderDetail }),
  },
  'POST /api/operator/orders/:number/invoice': {
    summary: 'Uloží faktúru objednávky ako PDF (operátor)',
    params: OrderNumber,
    answer: Type.Object({ data: Type.Object({ file: Type.String(), bytes: Type.Integer({ minimum: 0 }) }) }),
  },
  'GET /api/operator/orders/:number/email': {
    summary: 'Náhľad potvrdzujúceho e-mailu (operátor)',
    params: OrderNumber,
    answer: Type.Object({ data: Type.Object({ to: Type.String(), subject: Type.String(), text: Type.String(), html: Type.String() }) }),
  },
  'POST /api/operator/orders/:number/email': {
    summary: 'Pošle potvrdzujúci e-mail znova (operátor)',
    params: OrderNumber,
    answer: Type.Object({ data: Type.Object({ to: Type.String(), outbox: Type.Boolean() }) }),
  },
  'POST /api/operator/orders/:number/paid': {
    summary: 'Označí objednávku platenú prevodom ako zaplatenú (operátor)',
    params: OrderNumber,
    answer: Type.Object({ data: OrderDetail }),
  },
});

export type CheckoutCalls = CallTypes<typeof checkoutCalls>;
