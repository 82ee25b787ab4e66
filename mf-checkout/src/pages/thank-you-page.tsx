import { Link, NotFoundError, useLocation, useParams } from '@shop/shared-kernel';
import { formatDate, formatIban, formatPhone, formatPrice, formatZip } from '@shop/shared-kernel/rules';
import { usePageMeta } from '@shop/shared-kernel/react';
import type { OrderDetail } from '@shop/shared-kernel/contract';
import { InvoiceLink } from '../components/invoice-link.tsx';
import { OrderLines } from '../components/order-lines.tsx';
import { RetryPayment } from '../components/retry-payment.tsx';
import { useOrder } from '../components/use-order.ts';
import { useCheckoutStyles } from '../use-checkout-styles.ts';

const PAYMENT_STATUS: Record<OrderDetail['paymentStatus'], string> = {
  pending: 'čaká na úhradu',
  paid: 'zaplatená',
  cancelled: 'platba bola zrušená',
  failed: 'platba zlyhala',
  on_delivery: 'platíte pri prevzatí',
};

function OrderView({ order }: { order: OrderDetail }) {
  const c = order.contact;
  return (
    <>
      <p>
        Číslo objednávky: <strong data-testid="order-number">{order.number}</strong> · {formatDate(order.createdAt)} · Stav platby:{' '}
        <strong data-testid="payment-status">{PAYMENT_STATUS[order.paymentStatus]}</strong>
      </p>
      {order.transfer && (
        <div className="chk-transfer">
          <h2>Platba prevodom</h2>
          <p>
            IBAN: <strong>{formatIban(order.transfer.iban)}</strong>
            <br />
            Variabilný symbol: <strong>{order.transfer.variableSymbol}</strong>
            <br />
            Suma: <strong>{formatPrice(order.transfer.amount)}</strong>
            <br />
            Príjemca: {order.transfer.beneficiary}
          </p>
          <figure>
            {/* The server's SVG as a picture: no HTML is written into the page (a Trusted Types sink). */}
            <img
              className="chk-qr"
              alt="QR kód PAY by square"
              src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(order.transfer.qrSvg)}`}
            />
            <figcaption>Naskenujte QR kód PAY by square v aplikácii svojej banky.</figcaption>
          </figure>
        </div>
      )}
      {order.canRetryPayment && order.paymentStatus !== 'pending' && <RetryPayment token={order.token} />}
      {order.canRetryPayment && order.paymentStatus === 'pending' && <RetryPayment token={order.token} label="Zaplatiť kartou" />}
      <OrderLines lines={order.lines} totals={order} />
      <h2>Doručenie a fakturácia</h2>
      <p>
        {c.name}, {c.email}, {formatPhone(c.phone)}
        <br />
        {c.billing.street}, {formatZip(c.billing.zip)} {c.billing.city}
        {c.company && (
          <>
            <br />
            {c.company.name}, IČO {c.company.ico}, DIČ {c.company.dic}
            {c.company.icDph && `, IČ DPH ${c.company.icDph}`}
          </>
        )}
        {c.delivery && (
          <>
            <br />
            Doručiť: {c.delivery.name}, {c.delivery.street}, {formatZip(c.delivery.zip)} {c.delivery.city}
          </>
        )}
      </p>
      {order.pickupPoint && (
        <p data-testid="pickup-point">
          Výdajné miesto: <strong>{order.pickupPoint.name}</strong>, {order.pickupPoint.street}, {formatZip(order.pickupPoint.zip)}{' '}
          {order.pickupPoint.city} · {order.pickupPoint.hours}
        </p>
      )}
      {order.note && <p>Poznámka: {order.note}</p>}
      <p>
        <InvoiceLink order={order} />
      </p>
    </>
  );
}

/** An order token has 32 letters and digits; anything else cannot name an order. */
const ORDER_TOKEN = /^[A-Za-z0-9]{32}$/;

export default function ThankYouPage() {
  useCheckoutStyles();
  const { orderToken = '' } = useParams();
  const { pathname } = useLocation();
  const wellFormed = ORDER_TOKEN.test(orderToken);
  // A made-up link thanks nobody: the shell's not-found page (an unknown token answers 404 the same way).
  if (!wellFormed) throw new NotFoundError(pathname);
  return <ThankYou orderToken={orderToken} />;
}

function ThankYou({ orderToken }: { orderToken: string }) {
  const order = useOrder(orderToken);
  usePageMeta({ title: order.status === 'ready' ? 'Ďakujeme za objednávku' : 'Objednávka', description: 'Potvrdenie objednávky.' });
  return (
    <section className="chk-thankyou">
      <h1>{order.status === 'ready' ? 'Ďakujeme za objednávku' : 'Vaša objednávka'}</h1>
      {order.status === 'loading' && <p>Načítavam objednávku…</p>}
      {order.status === 'error' && (
        <p className="chk-message chk-message--error" role="alert">
          Objednávku sa nepodarilo načítať. Skontrolujte pripojenie a{' '}
          <button type="button" className="chk-link-button" onClick={order.reload}>
            skúste to znova
          </button>
          . Potvrdenie objednávky máte aj v e-maile.
        </p>
      )}
      {order.status === 'ready' && (
        <>
          <p>Potvrdenie sme poslali na e-mail {order.data.contact.email}.</p>
          <OrderView order={order.data} />
        </>
      )}
      <p>
        <Link to="/">Pokračovať v nákupe</Link>
      </p>
    </section>
  );
}
