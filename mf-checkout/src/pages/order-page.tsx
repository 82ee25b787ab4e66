import { useEffect, useState } from 'react';
import {
  Link,
  Navigate,
  useNavigate,
  call,
  ApiError,
  useBasketStore,
  useCheckoutStore,
  useCouponStore,
  useFlag,
  bus,
} from '@shop/shared-kernel';
import { CHECKOUT_FLAGS, formatFee, validateContact, basketCommerce } from '@shop/shared-kernel/rules';
import { usePageMeta } from '@shop/shared-kernel/react';
import { shopPaths, type CheckoutMethod } from '@shop/shared-kernel/contract';
import { CheckoutSteps } from '../components/checkout-steps.tsx';
import { effectiveContact } from '../components/contact.ts';
import { OrderLines } from '../components/order-lines.tsx';
import { PickupPointPicker } from '../components/pickup-point-picker.tsx';
import { useQuote } from '../components/use-quote.ts';
import { useCheckoutStyles } from '../use-checkout-styles.ts';

/** The shipping method that delivers to a pickup point the shopper chooses. */
const PICKUP_POINT_SHIPPING = 'pickup-point';
/** The payment method the `card-payment` switch turns off. */
const CARD_PAYMENT = 'card';

function Methods(props: {
  legend: string;
  name: string;
  methods: CheckoutMethod[];
  value: string | null;
  onChange: (code: string) => void;
}) {
  return (
    <fieldset className="chk-methods">
      <legend>{props.legend}</legend>
      {props.methods.map((m) => (
        <label key={m.code} className={`chk-method${m.available ? '' : ' chk-method--off'}`}>
          <input
            type="radio"
            name={props.name}
            value={m.code}
            checked={props.value === m.code}
            disabled={!m.available}
            onChange={() => props.onChange(m.code)}
          />
          <span className="chk-method__name">{m.name}</span>
          <span className="chk-method__price">{formatFee(m.price)}</span>
          <small>{m.available ? m.description : m.reason}</small>
        </label>
      ))}
    </fieldset>
  );
}

export default function OrderPage() {
  useCheckoutStyles();
  usePageMeta({ title: 'Doprava a platba', description: 'Výber dopravy a platby a odoslanie objednávky.' });
  const navigate = useNavigate();
  const lines = useBasketStore((state) => state.lines);
  const draft = useCheckoutStore();
  const couponCode = useCouponStore((state) => (state.status === 'valid' ? (state.coupon?.code ?? null) : null));
  const {
    quote,
    error: quoteError,
    current: quoteCurrent,
  } = useQuote(lines, { shippingCode: draft.shippingCode, paymentCode: draft.paymentCode, couponCode });
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [placed, setPlaced] = useState(false);
  const cardOn = useFlag('checkout', CHECKOUT_FLAGS.cardPayment);
  const pickupPointsOn = useFlag('checkout', CHECKOUT_FLAGS.pickupPoints);

  // The basket is checked against the shop again: a line no longer sold blocks the order here too.
  useEffect(() => {
    void useBasketStore
      .getState()
      .refreshLines()
      .catch(() => undefined);
  }, [quoteError]);
  const unsold = lines.filter((line) => line.variantData.v_availability === 'unavailable');

  // A non-empty basket is the route's requirement (`requiresBasket`), checked by the shell on entering
  // the step. Placing the order empties the basket and the draft on the way to the thank-you page.
  const contact = effectiveContact(draft.contact, draft.companyPurchase, draft.differentDelivery);
  if (!placed && Object.keys(validateContact(contact)).length > 0) return <Navigate to={shopPaths.checkoutContact()} replace />;

  // A method switched off (the area's feature switches, followed live) is not offered; a choice of it
  // is said to be gone rather than silently dropped. The server refuses it too.
  const shippingMethods = quote?.shipping.filter((m) => pickupPointsOn || m.code !== PICKUP_POINT_SHIPPING) ?? [];
  const paymentMethods = quote?.payment.filter((m) => cardOn || m.code !== CARD_PAYMENT) ?? [];
  const shipping = shippingMethods.find((m) => m.code === draft.shippingCode && m.available) ?? null;
  const payment = paymentMethods.find((m) => m.code === draft.paymentCode && m.available) ?? null;
  const switchedOff = [
    ...(!pickupPointsOn && draft.shippingCode === PICKUP_POINT_SHIPPING
      ? ['Doprava na výdajné miesto je teraz nedostupná. Vyberte, prosím, iný spôsob dopravy.']
      : []),
    ...(!cardOn && draft.paymentCode === CARD_PAYMENT ? ['Platba kartou je teraz nedostupná. Vyberte, prosím, iný spôsob platby.'] : []),
  ];

  const submit = async () => {
    // The total sent must be the price of what is chosen now, not of the choice before the last click.
    if (submitting || !quoteCurrent) return;
    setError(null);
    if (!quote || !shipping) return setError('Vyberte, prosím, spôsob dopravy.');
    if (shipping.code === PICKUP_POINT_SHIPPING && !draft.pickupPointCode)
      return setError('Vyberte výdajné miesto, kde si balík vyzdvihnete.');
    if (!payment) return setError('Vyberte, prosím, spôsob platby.');
    if (!draft.termsAccepted) return setError('Pre odoslanie objednávky potvrďte súhlas s obchodnými podmienkami a reklamačným poriadkom.');
    setSubmitting(true);
    try {
      const { data } = await call('POST /api/orders', {
        body: {
          idempotencyKey: draft.idempotencyKey,
          lines: lines.map((l) => ({ v_id: l.v_id, amount: l.amount })),
          contact,
          shippingCode: shipping.code,
          pickupPointCode: shipping.code === PICKUP_POINT_SHIPPING ? draft.pickupPointCode : null,
          paymentCode: payment.code,
          couponCode,
          note: draft.note,
          termsAccepted: true,
          expectedTotal: quote.amountDue,
        },
      });
      setPlaced(true);
      bus.emit('order:placed', {
        number: data.order.number,
        value: data.order.total,
        shipping: data.order.shipping.price,
        items: data.order.lines.map((line) => ({
          id: line.v_code,
          name: line.p_name,
          variant: line.v_name,
          price: line.unitPrice,
          quantity: line.amount,
        })),
      });
      // Only now, after the order exists, is the basket emptied; the thank-you page shows the order as answered here.
      useCheckoutStore.getState().finish(data.order);
      useBasketStore.getState().clear();
      if (data.redirectUrl) window.location.assign(data.redirectUrl);
      else navigate(shopPaths.thankYou(data.order.token), { replace: true });
    } catch (cause) {
      // A refused attempt gets a new key; after a network failure the same key makes a retry safe.
      if (!(cause instanceof ApiError) || cause.status !== 0) useCheckoutStore.getState().newAttempt();
      setError(cause instanceof Error ? cause.message : 'Objednávku sa nepodarilo odoslať.');
      setSubmitting(false);
    }
  };

  return (
    <section>
      <CheckoutSteps current={2} />
      <h1>Doprava a platba</h1>
      <div className="chk-layout">
        <div>
          {quoteError && (
            <p className="chk-message chk-message--error" role="alert">
              {quoteError}
            </p>
          )}
          {switchedOff.map((message) => (
            <p key={message} className="chk-message chk-message--error" role="status" data-testid="method-switched-off">
              {message}
            </p>
          ))}
          {quote ? (
            <>
              <Methods
                legend="Spôsob dopravy"
                name="shipping"
                methods={shippingMethods}
                value={draft.shippingCode}
                onChange={(code) => {
                  draft.update({ shippingCode: code });
                  bus.emit('checkout:shipping', { method: code, ...basketCommerce(lines) });
                }}
              />
              {shipping?.code === PICKUP_POINT_SHIPPING && (
                <PickupPointPicker value={draft.pickupPointCode} onChange={(code) => draft.update({ pickupPointCode: code })} />
              )}
              <Methods
                legend="Spôsob platby"
                name="payment"
                methods={paymentMethods}
                value={draft.paymentCode}
                onChange={(code) => {
                  draft.update({ paymentCode: code });
                  bus.emit('checkout:payment', { method: code, ...basketCommerce(lines) });
                }}
              />
            </>
          ) : (
            !quoteError && <p>Načítavam možnosti dopravy a platby…</p>
          )}
          <div className="chk-field">
            <label htmlFor="order-note">Poznámka k objednávke</label>
            <textarea
              id="order-note"
              rows={3}
              maxLength={1000}
              value={draft.note}
              onChange={(event) => draft.update({ note: event.target.value })}
            />
          </div>
          <div className="chk-address">
            <h2>Kontaktné údaje</h2>
            <p>
              {contact.name}, {contact.email}, {contact.phone}
              <br />
              {contact.billing.street}, {contact.billing.zip} {contact.billing.city}
              {contact.company && (
                <>
                  <br />
                  {contact.company.name}, IČO {contact.company.ico}
                </>
              )}
            </p>
            <Link to={shopPaths.checkoutContact()}>Upraviť údaje</Link>
          </div>
        </div>
        <aside className="chk-summary" aria-label="Súhrn objednávky">
          <h2>Súhrn objednávky</h2>
          {quote && <OrderLines lines={quote.lines} totals={{ ...quote, couponCode: quote.coupon?.code ?? null, shipping, payment }} />}
          <label className="chk-check">
            <input
              type="checkbox"
              checked={draft.termsAccepted}
              onChange={(event) => draft.update({ termsAccepted: event.target.checked })}
            />
            <span>
              Súhlasím s{' '}
              <Link to={shopPaths.page('obchodne-podmienky')} target="_blank">
                obchodnými podmienkami
              </Link>{' '}
              a{' '}
              <Link to={shopPaths.page('reklamacny-poriadok')} target="_blank">
                reklamačným poriadkom
              </Link>
              .
            </span>
          </label>
          {error && (
            <p className="chk-message chk-message--error" role="alert">
              {error}
            </p>
          )}
          {unsold.length > 0 ? (
            <div className="chk-message chk-message--error" role="alert" data-testid="unsold-lines">
              <p>
                Tento tovar sa už nepredáva, objednávku s ním nie je možné odoslať:{' '}
                {unsold.map((line) => `${line.variantData.p_name} (${line.variantData.v_name})`).join(', ')}.
              </p>
              <Link to={shopPaths.cart()}>Odstrániť ho v košíku</Link>
            </div>
          ) : (
            <button
              type="button"
              className="button button--primary chk-continue"
              onClick={() => void submit()}
              aria-busy={submitting || !quoteCurrent}
              disabled={!quoteCurrent}
            >
              {submitting ? 'Odosielam objednávku…' : 'Objednať s povinnosťou platby'}
            </button>
          )}
          <Link to={shopPaths.checkoutContact()}>Späť na kontaktné údaje</Link>
        </aside>
      </div>
    </section>
  );
}
