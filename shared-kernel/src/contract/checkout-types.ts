/** Checkout shapes: contact, methods, quote, orders, payments, pickup points. Money in thousandths of a euro. */
import { Type, type Static } from '@sinclair/typebox';

export type Coupon = Static<typeof Coupon>
export const Coupon = Type.Object({
code: Type.String()
})



export type PostalAddress = Static<typeof PostalAddress>
export const PostalAddress = Type.Object({
street: Type.String(),
city: Type.String(),
zip: Type.String()
})

export type CompanyData = Static<typeof CompanyData>
export const CompanyData = Type.Object({
name: Type.String(),
ico: Type.String(),
dic: Type.String(),
icDph: Type.String()
})

export type CheckoutContact = Static<typeof CheckoutContact>
export const CheckoutContact = Type.Object({
email: Type.String(),
phone: Type.String(),
name: Type.String(),
billing: PostalAddress,
company: Type.Union([
CompanyData,
Type.Null()
]),
delivery: Type.Union([
Type.Composite([
PostalAddress,
Type.Object({
name: Type.String()
})
]),
Type.Null()
])
})

export type ShippingCode = Static<typeof ShippingCode>
export const ShippingCode = Type.Union([
Type.Literal('pickup'),
Type.Literal('courier'),
Type.Literal('pickup-point'),
Type.Literal('pallet'),
Type.Literal('own-truck')
])

export type PaymentCode = Static<typeof PaymentCode>
export const PaymentCode = Type.Union([
Type.Literal('card'),
Type.Literal('transfer'),
Type.Literal('cod'),
Type.Literal('cash')
])

export type CheckoutMethod = Static<typeof CheckoutMethod>
export const CheckoutMethod = Type.Object({
code: Type.String(),
name: Type.String(),
description: Type.String(),
price: Type.Number(),
available: Type.Boolean(),
reason: Type.Union([
Type.String(),
Type.Null()
])
})

export type VatLine = Static<typeof VatLine>
export const VatLine = Type.Object({
rate: Type.Number(),
base: Type.Number(),
vat: Type.Number(),
total: Type.Number()
})

export type OrderLine = Static<typeof OrderLine>
export const OrderLine = Type.Object({
v_id: Type.Number(),
v_code: Type.String(),
p_name: Type.String(),
v_name: Type.String(),
v_unit: Type.String(),
amount: Type.Number(),
unitPrice: Type.Number(),
vat: Type.Number(),
lineTotal: Type.Number()
})

export type CheckoutQuote = Static<typeof CheckoutQuote>
export const CheckoutQuote = Type.Object({
lines: Type.Array(OrderLine),
weight: Type.Number(),
itemsTotal: Type.Number(),
coupon: Type.Union([
Coupon,
Type.Null()
]),
discount: Type.Number(),
couponMessage: Type.Union([
Type.String(),
Type.Null()
]),
shipping: Type.Array(CheckoutMethod),
payment: Type.Array(CheckoutMethod),
shippingPrice: Type.Number(),
paymentPrice: Type.Number(),
total: Type.Number(),
amountDue: Type.Number(),
vat: Type.Array(VatLine)
})

export type OrderPaymentStatus = Static<typeof OrderPaymentStatus>
export const OrderPaymentStatus = Type.Union([
Type.Literal('pending'),
Type.Literal('paid'),
Type.Literal('cancelled'),
Type.Literal('failed'),
Type.Literal('on_delivery')
])

export type TransferInstructions = Static<typeof TransferInstructions>
export const TransferInstructions = Type.Object({
iban: Type.String(),
variableSymbol: Type.String(),
amount: Type.Number(),
beneficiary: Type.String(),
qrSvg: Type.String()
})

export type PickupPoint = Static<typeof PickupPoint>
export const PickupPoint = Type.Object({
code: Type.String(),
name: Type.String(),
street: Type.String(),
zip: Type.String(),
city: Type.String(),
hours: Type.String(),
lat: Type.Number(),
lon: Type.Number(),
distanceKm: Type.Union([
Type.Number(),
Type.Null()
])
})

export type OrderDetail = Static<typeof OrderDetail>
export const OrderDetail = Type.Object({
number: Type.String(),
token: Type.String(),
createdAt: Type.String(),
status: Type.Union([
Type.Literal('new'),
Type.Literal('cancelled')
]),
paymentStatus: OrderPaymentStatus,
pickupPoint: Type.Union([
PickupPoint,
Type.Null()
]),
shipping: Type.Object({
code: Type.String(),
name: Type.String(),
price: Type.Number()
}),
payment: Type.Object({
code: Type.String(),
name: Type.String(),
price: Type.Number()
}),
contact: CheckoutContact,
note: Type.String(),
lines: Type.Array(OrderLine),
itemsTotal: Type.Number(),
couponCode: Type.Union([
Type.String(),
Type.Null()
]),
discount: Type.Number(),
total: Type.Number(),
amountDue: Type.Number(),
vat: Type.Array(VatLine),
transfer: Type.Union([
TransferInstructions,
Type.Null()
]),
canRetryPayment: Type.Boolean()
})

export type ShippingPriceList = Static<typeof ShippingPriceList>
export const ShippingPriceList = Type.Object({
shipping: Type.Array(Type.Object({
code: Type.String(),
name: Type.String(),
description: Type.String(),
price: Type.Number(),
bands: Type.Array(Type.Object({
maxWeight: Type.Number(),
price: Type.Number()
})),
freeFrom: Type.Union([
Type.Number(),
Type.Null()
]),
maxWeight: Type.Union([
Type.Number(),
Type.Null()
]),
pallet: Type.Union([
Type.Object({
perWeight: Type.Number(),
minWeight: Type.Number()
}),
Type.Null()
])
})),
payment: Type.Array(Type.Object({
code: Type.String(),
name: Type.String(),
description: Type.String(),
price: Type.Number(),
onlyWith: Type.Array(Type.String())
}))
})

export type PlacedOrder = Static<typeof PlacedOrder>
export const PlacedOrder = Type.Object({
order: OrderDetail,
redirectUrl: Type.Union([
Type.String(),
Type.Null()
])
})

export type PaymentRefund = Static<typeof PaymentRefund>
export const PaymentRefund = Type.Object({
paymentId: Type.Number(),
gatewayRef: Type.String(),
orderNumber: Type.String(),
amountCents: Type.Number(),
status: Type.Union([
Type.Literal('pending'),
Type.Literal('refunded'),
Type.Literal('failed')
]),
reason: Type.Union([
Type.String(),
Type.Null()
]),
paidAt: Type.String(),
refundedAt: Type.Union([
Type.String(),
Type.Null()
])
})
