import { useEffect, useState } from 'react';
import { Link, useLocation, useNavigate, useSearchParams, call } from '@shop/shared-kernel';
import { formatPrice } from '@shop/shared-kernel/rules';
import { usePageMeta } from '@shop/shared-kernel/react';
import { shopPaths, type OrderDetail } from '@shop/shared-kernel/contract';
import { RetryPayment } from '../components/retry-payment.tsx';
import { useCheckoutStyles } from '../use-checkout-styles.ts';

type Outcome = 'pending' | 'success' | 'cancelled';

const TITLES: Record<Outcome, string> = {
  pending: 'Overujeme platbu',
  success: 'Platba prebehla úspešne',
  cancelled: 'Platba bola zrušená',
};

const POLL_MS = 1_000;
const POLL_LIMIT = 120;

/** /payment/pending, /payment/success and /payment/cancelled (?order={orderToken}). */
export default function PaymentPage() {
  useCheckoutStyles();
  const { pathname } = useLocation();
  const outcome: Outcome = pathname.endsWith('/success') ? 'success' : pathname.endsWith('/cancelled') ? 'cancelled' : 'pending';
  usePageMeta({ title: TITLES[outcome], description: 'Výsledok platby objednávky.' });
  const [params] = useSearchParams();
  const token = params.get('order') ?? '';
  const navigate = useNavigate();
  const [order, setOrder] = useState<OrderDetail | null>(null);
  const [error, setError] = useState<string | null>(token ? null : 'V adrese chýba objednávka.');
  const [slow, setSlow] = useState(false);

  useEffect(() => {
    if (!token) return;
    let stopped = false;
    let attempts = 0;
    const poll = async () => {
      if (stopped) return;
      attempts += 1;
      try {
        const { data } = await call('GET /api/orders/:token', { params: { token } });
        if (stopped) return;
        setOrder(data);
        setError(null);
        if (outcome === 'pending') {
          if (data.paymentStatus === 'paid') return navigate(shopPaths.payment('success', token), { replace: true });
          if (data.paymentStatus === 'cancelled' || data.paymentStatus === 'failed') {
            return navigate(shopPaths.payment('cancelled', token), { replace: true });
          }
        } else return;
      } catch (cause) {
        if (stopped) return;
        setError(cause instanceof Error ? cause.message : 'Stav platby sa nepodarilo overiť.');
      }
      if (attempts >= 10) setSlow(true);
      if (attempts < POLL_LIMIT) setTimeout(() => void poll(), POLL_MS);
    };
    void poll();
    return () => {
      stopped = true;
    };
  }, [token, outcome, navigate]);

  return (
    <section className="chk-payment" data-outcome={outcome}>
      <h1>{TITLES[outcome]}</h1>
      {error && (
        <p className="chk-message chk-message--error" role="alert">
          {error}
        </p>
      )}
      {outcome === 'pending' && !error && (
        <p role="status">
          Čakáme na potvrdenie platby od platobnej brány…{slow && ' Trvá to dlhšie ako zvyčajne; stránka sa obnoví sama.'}
        </p>
      )}
      {outcome === 'success' && order && (
        <>
          <p>
            Objednávka č. <strong data-testid="order-number">{order.number}</strong> je zaplatená ({formatPrice(order.amountDue)}).
            Ďakujeme!
          </p>
          <p>
            Potvrdenie sme poslali na e-mail {order.contact.email}. Keď bude tovar pripravený, ozveme sa vám
            {order.pickupPoint ? ` a pošleme ho na výdajné miesto ${order.pickupPoint.name}` : ''}.
          </p>
        </>
      )}
      {outcome === 'cancelled' && order && (
        <>
          <p>
            Objednávka č. <strong data-testid="order-number">{order.number}</strong> je prijatá, ale ešte nie je zaplatená (
            {formatPrice(order.amountDue)}).
          </p>
          <p>
            Platbu kartou môžete skúsiť znova. Objednávka zostane uložená; ak ju nezaplatíte, nebudeme ju vybavovať. S platbou vám radi
            pomôžeme na telefóne uvedenom v pätičke.
          </p>
          {order.canRetryPayment && <RetryPayment token={order.token} />}
        </>
      )}
      {token && (
        <p>
          <Link to={shopPaths.thankYou(token)}>Zobraziť objednávku</Link>
        </p>
      )}
    </section>
  );
}
