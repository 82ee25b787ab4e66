/**
 * Checkout shapes: contact, shipping and payment methods, the quote, orders, payments, pickup
 * points. Money is always an integer in thousandths of a euro (requirements R9.1).
 */
import { Type, type Static } from '@sinclair/typebox';

const NullableString = Type.Union([Type.String(), Type.Null()]);
const NullableNumber = Type.Union([Type.Number(), Type.Null()]);

export type Coupon = Static<typeof Coupon>;
export const Coupon = Type.Object({ code: Type.String() });

export type PostalAddress = Static<typeof PostalAddress>;
export const PostalAddress = Type.Object({
  street: Type.String(),
  city: Type.String(),
  /** PSČ, five digits (a space after the third is accepted on input). */
  zip: Type.String({ description: 'PSČ, päť číslic' }),
});

export type CompanyData = Static<typeof CompanyData>;
export const CompanyData = Type.Object({
  name: Type.String(),
  /** IČO, eight digits. */
  ico: Type.String({ description: 'IČO, osem číslic' }),
  /** DIČ, ten digits. */
  dic: Type.String({ description: 'DIČ, desať číslic' }),
  /** IČ DPH, "SK" and ten digits; empty when the company is not a VAT payer. */
  icDph: Type.String({ description: 'IČ DPH, „SK“ a desať číslic; prázdne, ak firma nie je platiteľ DPH' }),
});

/** What the contact step collects. */
export type CheckoutContact = Static<typeof CheckoutContact>;
export const CheckoutContact = Type.Object({
  email: Type.String(),
  /** Slovak number in the form +421 9xx xxx xxx (normalised by the API to +421xxxxxxxxx). */
  phone: Type.String({ description: 'Slovenské číslo v tvare +421 9xx xxx xxx' }),
  name: Type.String(),
  billing: PostalAddress,
  /** Null: a private purchase. */
  company: Type.Union([CompanyData, Type.Null()]),
  /** Null: deliver to the billing address. */
  delivery: Type.Union([Type.Composite([PostalAddress, Type.Object({ name: Type.String() })]), Type.Null()]),
});

export type ShippingCode = Static<typeof ShippingCode>;
export const ShippingCode = Type.Union([
  Type.Literal('pickup'),
  Type.Literal('courier'),
  Type.Literal('pickup-point'),
  Type.Literal('pallet'),
  Type.Literal('own-truck'),
]);

export type PaymentCode = Static<typeof PaymentCode>;
export const PaymentCode = Type.Union([Type.Literal('card'), Type.Literal('transfer'), Type.Literal('cod'), Type.Literal('cash')]);

/** A shipping or payment method as offered for a given basket; prices with VAT. */
export type CheckoutMethod = Static<typeof CheckoutMethod>;
export const CheckoutMethod = Type.Object({
  code: Type.String(),
  name: Type.String(),
  description: Type.String(),
  /** Price with VAT, thousandths. */
  price: Type.Number({ description: 'Cena s DPH v tisícinách eura' }),
  available: Type.Boolean(),
  /** Why it is not available (Slovak), null when it is. */
  reason: NullableString,
});

/** VAT of one rate: base + vat = total (thousandths). */
export type VatLine = Static<typeof VatLine>;
export const VatLine = Type.Object({ rate: Type.Number(), base: Type.Number(), vat: Type.Number(), total: Type.Number() });

/** A basket or order line priced by the API from the database. */
export type OrderLine = Static<typeof OrderLine>;
export const OrderLine = Type.Object({
  v_id: Type.Number(),
  v_code: Type.String(),
  p_name: Type.String(),
  v_name: Type.String(),
  v_unit: Type.String(),
  amount: Type.Number(),
  /** Unit price with VAT, whole cents (requirements R9.1). */
  unitPrice: Type.Number({ description: 'Jednotková cena s DPH, zaokrúhlená na centy' }),
  vat: Type.Number(),
  /** unitPrice × amount. */
  lineTotal: Type.Number(),
});

/** The API's price of a basket with a shipping and payment choice. */
export type CheckoutQuote = Static<typeof CheckoutQuote>;
export const CheckoutQuote = Type.Object({
  lines: Type.Array(OrderLine),
  /** Grams. */
  weight: Type.Number(),
  itemsTotal: Type.Number(),
  coupon: Type.Union([Coupon, Type.Null()]),
  /** Coupon discount, thousandths, never more than itemsTotal. */
  discount: Type.Number(),
  /** Why the coupon was not applied, null otherwise. */
  couponMessage: NullableString,
  shipping: Type.Array(CheckoutMethod),
  payment: Type.Array(CheckoutMethod),
  shippingPrice: Type.Number(),
  paymentPrice: Type.Number(),
  total: Type.Number(),
  /** What the shopper pays: the total rounded to 0.05 € for cash payments, else the total. */
  amountDue: Type.Number({ description: 'Suma na úhradu (pri hotovosti zaokrúhlená na 0,05 €)' }),
  vat: Type.Array(VatLine),
});

export type OrderPaymentStatus = Static<typeof OrderPaymentStatus>;
export const OrderPaymentStatus = Type.Union([
  Type.Literal('pending'),
  Type.Literal('paid'),
  Type.Literal('cancelled'),
  Type.Literal('failed'),
  Type.Literal('on_delivery'),
]);

/** Bank transfer details with the PAY by square code. */
export type TransferInstructions = Static<typeof TransferInstructions>;
export const TransferInstructions = Type.Object({
  iban: Type.String(),
  variableSymbol: Type.String(),
  amount: Type.Number(),
  beneficiary: Type.String(),
  /** The PAY by square QR code as an SVG document. */
  qrSvg: Type.String(),
});

/** A place where a parcel waits for the shopper (shipping "Výdajné miesto"). */
export type PickupPoint = Static<typeof PickupPoint>;
export const PickupPoint = Type.Object({
  code: Type.String(),
  name: Type.String(),
  street: Type.String(),
  /** PSČ, five digits. */
  zip: Type.String(),
  city: Type.String(),
  /** Opening hours as shown, e.g. "Po – Pi 8:00 – 18:00, So 8:00 – 12:00". */
  hours: Type.String(),
  lat: Type.Number(),
  lon: Type.Number(),
  /** Kilometres from the position asked about, rounded to 0.1; null without a position. */
  distanceKm: NullableNumber,
});

/** A method as the order recorded it (name and price at the time of the order). */
const ChosenMethod = Type.Object({ code: Type.String(), name: Type.String(), price: Type.Number() });

export type OrderDetail = Static<typeof OrderDetail>;
export const OrderDetail = Type.Object({
  number: Type.String(),
  token: Type.String(),
  createdAt: Type.String(),
  status: Type.Union([Type.Literal('new'), Type.Literal('cancelled')]),
  paymentStatus: OrderPaymentStatus,
  /** The pickup point chosen for shipping "Výdajné miesto"; null for other shipping. */
  pickupPoint: Type.Union([PickupPoint, Type.Null()]),
  shipping: ChosenMethod,
  payment: ChosenMethod,
  contact: CheckoutContact,
  note: Type.String(),
  lines: Type.Array(OrderLine),
  itemsTotal: Type.Number(),
  couponCode: NullableString,
  discount: Type.Number(),
  total: Type.Number(),
  amountDue: Type.Number(),
  vat: Type.Array(VatLine),
  transfer: Type.Union([TransferInstructions, Type.Null()]),
  /** A card payment that was cancelled, failed or never finished can be started again. */
  canRetryPayment: Type.Boolean(),
});

/** The shipping and payment price list (the /doprava-a-platba page), from the checkout's own rules. Prices with VAT. */
export type ShippingPriceList = Static<typeof ShippingPriceList>;
export const ShippingPriceList = Type.Object({
  shipping: Type.Array(
    Type.Object({
      code: Type.String(),
      name: Type.String(),
      description: Type.String(),
      /** Base price, or the price per pallet for pallet delivery. */
      price: Type.Number(),
      /** Weight bands (grams) with their prices, lightest first; empty: one price. */
      bands: Type.Array(Type.Object({ maxWeight: Type.Number(), price: Type.Number() })),
      /** Free from this order value (goods after discount), or null. */
      freeFrom: NullableNumber,
      /** Heaviest order (grams) the method takes, or null. */
      maxWeight: NullableNumber,
      /** Pallet delivery: priced per started `perWeight` grams, offered above `minWeight` grams. */
      pallet: Type.Union([Type.Object({ perWeight: Type.Number(), minWeight: Type.Number() }), Type.Null()]),
    }),
  ),
  payment: Type.Array(
    Type.Object({
      code: Type.String(),
      name: Type.String(),
      description: Type.String(),
      price: Type.Number(),
      /** The shipping codes this payment can be chosen with. */
      onlyWith: Type.Array(Type.String()),
    }),
  ),
});

/** A placed order, and where the shopper goes to pay by card (null: nothing to pay online). */
export type PlacedOrder = Static<typeof PlacedOrder>;
export const PlacedOrder = Type.Object({ order: OrderDetail, redirectUrl: NullableString });

/** A card payment the operator may refund, with where its refund stands. */
export type PaymentRefund = Static<typeof PaymentRefund>;
export const PaymentRefund = Type.Object({
  paymentId: Type.Number(),
  gatewayRef: Type.String(),
  orderNumber: Type.String(),
  amountCents: Type.Number(),
  status: Type.Union([Type.Literal('pending'), Type.Literal('refunded'), Type.Literal('failed')]),
  reason: NullableString,
  paidAt: Type.String(),
  refundedAt: NullableString,
});
