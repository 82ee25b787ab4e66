/**
 * Sign-in and the shopper's account: sign-up, sign-in and sign-out, password reset, profile,
 * addresses, order history with withdrawal, complaints, coupons and loyalty points; and the
 * operator's calls that move orders and complaints between states (the operator origin's session).
 * Calls that need a signed-in shopper take the token of POST /api/account/login: as a Bearer token
 * (API clients) or, in the browser, as the HttpOnly session cookie the sign-in sets (`shop_session`,
 * Path=/api); an unsafe call authenticated by the cookie must come from the shop's own origin (403).
 */
import { Type } from '@sinclair/typebox';
import { defineCalls, Ok, Paged, type CallTypes } from './common.ts';
import {
  AccountOrderDetail,
  AccountOrderSummary,
  Address,
  AddressInput,
  CheckoutPrefill,
  Complaint,
  ComplaintState,
  CouponValidation,
  EmailInput,
  LinkToken,
  LoyaltyPoints,
  OrderState,
  PasswordInput,
  Profile,
  ProfileInput,
  RecordId,
  User,
} from './account-types.ts';
import { Coupon } from './checkout-types.ts';

/** When the session ends (ISO 8601). */
const IsoTime = Type.String();
/** An order's 32-character token (its secret link). */
const OrderToken = Type.String({ pattern: '^[A-Za-z0-9]{32}$' });
/** An order number as printed on the invoice. */
const OrderNumber = Type.String({ pattern: '^[0-9]{6,16}$' });
/** The answer of sign-up and reset requests (202): the same whether the e-mail has an account or not. */
const Accepted = Type.Object({ data: Type.Object({ ok: Type.Literal(true), message: Type.String() }) });

export const accountCalls = defineCalls({
  'POST /api/account/login': {
    body: Type.Object({ email: EmailInput, password: PasswordInput }),
    answer: Type.Object({ data: Type.Object({ token: Type.String(), expiresAt: IsoTime, user: User }) }),
  },
  // requirements R7.1
  'POST /api/account/logout': {
    summary: 'Odhlásenie: zneplatní token (authHash, Bearer a/alebo cookie) a zmaže cookie relácie',
    /** authHash: a token to revoke; the browser sends none (its session is the cookie). */
    body: Type.Object({ authHash: Type.Optional(Type.String({ maxLength: 4096 })) }),
    answer: Ok,
  },
  'GET /api/account/me': { summary: 'Prihlásený používateľ', answer: Type.Object({ data: User }) },
  /** Answers 202 whether the e-mail was free or not; the mailbox's owner learns which by e-mail. */
  'POST /api/account/register': {
    summary: 'Registrácia (odpoveď 202 rovnaká pre voľný aj obsadený e-mail)',
    body: Type.Object({
      email: EmailInput,
      password: PasswordInput,
      name: Type.String({ maxLength: 120 }),
      newsletter: Type.Optional(Type.Boolean()),
    }),
    answer: Accepted,
    status: 202,
  },
  /** Answers 202; a one-time link valid for an hour goes to the e-mail when it has an account. */
  'POST /api/account/password-reset': {
    summary: 'Žiadosť o odkaz na nové heslo (odpoveď 202)',
    body: Type.Object({ email: EmailInput }),
    answer: Accepted,
    status: 202,
  },
  /** Sets the new password once per link and ends every session of the account. */
  'POST /api/account/password-reset/confirm': {
    body: Type.Object({ token: LinkToken, password: PasswordInput }),
    answer: Ok,
  },
  'GET /api/account/profile': { answer: Type.Object({ data: Profile }) },
  /** A new e-mail is taken only when the link sent to it is opened (POST /api/account/email/confirm). */
  'PUT /api/account/profile': { body: ProfileInput, answer: Type.Object({ data: Profile }) },
  'POST /api/account/email/confirm': {
    summary: 'Potvrdenie nového e-mailu odkazom',
    body: Type.Object({ token: LinkToken }),
    answer: Type.Object({ data: Profile }),
  },
  /** Ends every other session; answers a fresh token for this one. */
  'POST /api/account/password': {
    summary: 'Zmena hesla (ukončí ostatné prihlásenia, vráti nový token)',
    body: Type.Object({ currentPassword: PasswordInput, newPassword: PasswordInput }),
    answer: Type.Object({ data: Type.Object({ token: Type.String(), expiresAt: IsoTime }) }),
  },
  /** Personal data anonymised; orders, complaints and withdrawals kept. */
  'POST /api/account/delete': {
    summary: 'Zrušenie účtu (osobné údaje anonymizované, objednávky ostávajú)',
    body: Type.Object({ password: PasswordInput }),
    answer: Ok,
  },

  'GET /api/account/addresses': { answer: Type.Object({ data: Type.Array(Address) }) },
  'POST /api/account/addresses': { status: 201, body: AddressInput, answer: Type.Object({ data: Address }) },
  'PUT /api/account/addresses/:id': {
    params: Type.Object({ id: RecordId }),
    body: AddressInput,
    answer: Type.Object({ data: Address }),
  },
  'DELETE /api/account/addresses/:id': { params: Type.Object({ id: RecordId }), answer: Ok },
  'GET /api/account/checkout-prefill': {
    summary: 'Kontaktné údaje pre pokladňu z profilu a predvolených adries',
    answer: Type.Object({ data: CheckoutPrefill }),
  },

  'GET /api/account/orders': {
    query: Type.Object({ page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000 })) }),
    answer: Paged(AccountOrderSummary),
  },
  'GET /api/account/orders/:token': { params: Type.Object({ token: OrderToken }), answer: Type.Object({ data: AccountOrderDetail }) },
  'POST /api/account/orders/:token/withdraw': {
    summary: 'Odstúpenie od zmluvy (celá objednávka alebo niektoré položky)',
    params: Type.Object({ token: OrderToken }),
    body: Type.Object({
      /** The lines to withdraw from; all lines of the order for a whole withdrawal. */
      itemIds: Type.Array(RecordId, { minItems: 1, maxItems: 200 }),
      /** Must be true. */
      confirm: Type.Boolean(),
    }),
    answer: Type.Object({ data: AccountOrderDetail }),
  },

  'GET /api/account/complaints': { answer: Type.Object({ data: Type.Array(Complaint) }) },
  /** multipart/form-data: orderToken, itemId, reason, description, photos (0–5 files, JPEG/PNG/WebP, 5 MB each). */
  'POST /api/account/complaints': {
    summary: 'Reklamácia (multipart/form-data: orderToken, itemId, reason, description, photos)',
    multipart: true,
    status: 201,
    answer: Type.Object({ data: Complaint }),
  },

  // operator (the operator origin only, a signed-in operator's session)
  'POST /api/operator/orders/:number/state': {
    summary: 'Obsluha presunie objednávku do iného stavu',
    params: Type.Object({ number: OrderNumber }),
    body: Type.Object({ state: OrderState, note: Type.Optional(Type.String({ maxLength: 500 })) }),
    answer: Type.Object({ data: AccountOrderDetail }),
  },
  'POST /api/operator/complaints/:id/state': {
    summary: 'Obsluha zmení stav reklamácie',
    params: Type.Object({ id: RecordId }),
    body: Type.Object({ state: ComplaintState, resolution: Type.Optional(Type.String({ maxLength: 2000 })) }),
    answer: Type.Object({ data: Complaint }),
  },

  // requirements R7.2, R7.3; always for the user of the Bearer token (another userId answers 403)
  'POST /api/coupon/validate': {
    summary: 'Overenie kupónu voči košíku oceneného z databázy',
    body: Type.Object({
      code: Type.String({ maxLength: 64 }),
      /** The basket's lines (BasketLine[]); only v_id and amount are read, prices come from the database. */
      cart: Type.Array(
        Type.Object({
          v_id: RecordId,
          amount: Type.Number({ exclusiveMinimum: 0, maximum: 100_000 }),
        }),
        { maxItems: 500 },
      ),
      /** The client's total; ignored (the API prices the basket itself). */
      total: Type.Optional(Type.Number()),
      userId: RecordId,
    }),
    answer: CouponValidation,
  },
  // requirements R7.3's path, but a change of state is never a GET (a link from another site would clear a
  // shopper's coupon): GET answers 405 and changes nothing.
  'POST /api/coupon/deactive': {
    summary: 'Zruší aktívny kupón používateľa',
    query: Type.Object({ userId: Type.Optional(RecordId) }),
    answer: Ok,
  },
  'GET /api/coupon/active': {
    summary: 'Aktívny kupón používateľa (null: žiadny)',
    query: Type.Object({ user_id: Type.Optional(RecordId) }),
    answer: Type.Object({ coupon: Type.Union([Coupon, Type.Null()]) }),
  },

  'GET /api/loyalty': {
    summary: 'Vernostné body (1 bod za každé celé euro zaplatených objednávok)',
    answer: Type.Object({ data: LoyaltyPoints }),
  },
});

export type AccountCalls = CallTypes<typeof accountCalls>;
