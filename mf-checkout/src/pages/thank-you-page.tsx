import { Link, useParams, formatDate, formatPrice, usePageMeta, type OrderDetail } from '@shop/shared-kernel';
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
            IBAN: <strong>{order.transfer.iban}</strong><br />
            Variabilný symbol: <strong>{order.transfer.variableSymbol}</strong><br />
            Suma: <strong>{formatPrice(order.transfer.amount)}</strong><br />
            Príjemca: {order.transfer.beneficiary}
          </p>
          <figure>
            <div className="chk-qr" role="img" aria-label="QR kód PAY by square" dangerouslySetInnerHTML={{ __html: order.transfer.qrSvg }} />
            <figcaption>Naskenujte QR kód PAY by square v aplikácii svojej banky.</figcaption>
          </figure>
        </div>
      )}
      {order.canRetryPayment && order.paymentStatus !== 'pending' && <RetryPayment token={order.token} />}
      {order.canRetryPayment && order.paymentStatus === 'pending' && <RetryPayment token={order.token} label="Zaplatiť kartou" />}
      <OrderLines lines={order.lines} itemsTotal={order.itemsTotal} discount={order.discount} couponCode={order.couponCode}
        shipping={order.shipping} payment={order.payment} total={order.total} amountDue={order.amountDue} vat={order.vat} />
      <h2>Doručenie a fakturácia</h2>
      <p>
        {c.name}, {c.email}, {c.phone}<br />
        {c.billing.street}, {c.billing.zip} {c.billing.city}
        {c.company && <><br />{c.company.name}, IČO {c.company.ico}, DIČ {c.company.dic}{c.company.icDph && `, IČ DPH ${c.company.icDph}`}</>}
        {c.delivery && <><br />Doručiť: {c.delivery.name}, {c.delivery.street}, {c.delivery.zip} {c.delivery.city}</>}
      </p>
      {order.note && <p>Poznámka: {order.note}</p>}
      <p><InvoiceLink token={order.token} /></p>
    </>
  );
}

export default function ThankYouPage() {
  useCheckoutStyles();
  const { orderToken = '' } = useParams();
  usePageMeta({ title: 'Ďakujeme za objednávku', description: 'Potvrdenie objednávky.' });
  const order = useOrder(orderToken);
  return (
    <section className="chk-thankyou">
      <h1>Ďakujeme za objednávku</h1>
      {order.status === 'loading' && <p>Načítavam objednávku…</p>}
      {order.status === 'error' && (
        <p className="chk-message chk-message--error" role="alert">
          Objednávku sa nepodarilo načítať. <button type="button" className="chk-link-button" onClick={order.reload}>Skúsiť znova</button>
        </p>
      )}
      {order.status === 'ready' && (
        <>
          <p>Potvrdenie sme poslali na e-mail {order.data.contact.email}.</p>
          <OrderView order={order.data} />
        </>
      )}
      <p><Link to="/">Pokračovať v nákupe</Link></p>
    </section>
  );
}
