import { useState } from 'react';
import type { PaymentRefund } from '@shop/shared-kernel/contract';
import { formatPrice } from '@shop/shared-kernel/rules';
import { call, messageOf } from '../api.ts';
import { time } from '../format.ts';
import { useLoad } from '../use-load.ts';

const REFUND_STATUS: Record<PaymentRefund['status'], string> = {
  pending: 'čaká na bránu',
  refunded: 'vrátená',
  failed: 'brána odmietla – skontrolujte',
};

/** A refund the gateway refused, made by hand at the gateway: the operator records it with a note. */
function ByHand({ refund, done }: { refund: PaymentRefund; done: () => void }) {
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const record = async () => {
    setError(null);
    try {
      await call('POST /api/operator/payments/:id/refunded', { params: { id: refund.paymentId }, body: { note: note.trim() } });
      done();
    } catch (failure) {
      setError(messageOf(failure));
    }
  };
  return (
    <span className="ops__inline-form">
      <label className="visually-hidden" htmlFor={`refund-note-${refund.paymentId}`}>
        Poznámka k ručnému vráteniu platby {refund.paymentId}
      </label>
      <input
        id={`refund-note-${refund.paymentId}`}
        placeholder="Ako ste platbu vrátili"
        maxLength={500}
        value={note}
        onChange={(event) => setNote(event.target.value)}
      />
      <button type="button" className="button" disabled={note.trim().length < 3} onClick={() => void record()}>
        Vrátené ručne
      </button>
      {error && <span role="alert">{error}</span>}
    </span>
  );
}

/** Card payments the shop refunds (a second payment of an order, or one after it ended). */
export function Refunds() {
  const { data: refunds, reload } = useLoad(async () => (await call('GET /api/ops/refunds')).data, []);
  if (!refunds) return null;
  return (
    <>
      <h2>Vrátené platby</h2>
      {refunds.length === 0 ? (
        <p>Žiadna platba nebola zaplatená dvakrát.</p>
      ) : (
        <ul className="ops__refunds" data-testid="ops-refunds">
          {refunds.map((r) => (
            <li key={r.paymentId}>
              Objednávka č. {r.orderNumber} · {formatPrice(r.amountCents * 10)} · {REFUND_STATUS[r.status]} · {r.reason ?? ''} ·{' '}
              {time(r.refundedAt ?? r.paidAt)}
              {r.status === 'failed' && <ByHand refund={r} done={reload} />}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
