import { Fragment, useState } from 'react';
import { Link, useParams, call, resource, useBasketStore, usePaymentRetry, useInvoiceDownload } from '@shop/shared-kernel';
import { formatDate, formatPrice, ORDER_STATE_LABELS, formatZip, countSk, totalsRows } from '@shop/shared-kernel/rules';
import { dataOf, usePageMeta, useResource } from '@shop/shared-kernel/react';
import { shopPaths, type AccountOrderDetail } from '@shop/shared-kernel/contract';
import { errorMessage } from '../components/field.tsx';
import { ITEM_FORMS, PAYMENT_LABELS } from '../components/order-labels.ts';
import { RequireSignIn } from '../components/require-sign-in.tsx';
import { StatusMessage } from '../components/status-message.tsx';
import { useAccountStyles } from '../use-account-styles.ts';

function InvoiceButton({ order }: { order: AccountOrderDetail }) {
  const { busy, error, download } = useInvoiceDownload(order);
  return (
    <>
      <button type="button" className="button" disabled={busy} onClick={() => void download()}>
        Stiahnuť faktúru (PDF)
      </button>
      {error && (
        <p className="acc-error" role="alert">
          {error}
        </p>
      )}
    </>
  );
}

function PayAgain({ token }: { token: string }) {
  const { busy, error, start } = usePaymentRetry(token, (caught) => errorMessage(caught, 'Platbu sa nepodarilo spustiť.'));
  return (
    <>
      <button type="button" className="button button--primary" disabled={busy} onClick={() => void start()}>
        Zaplatiť znova kartou
      </button>
      {error && (
        <p className="acc-error" role="alert">
          {error}
        </p>
      )}
    </>
  );
}

/** The order's lines back into the basket at today's prices (the variant call), skipping what is no longer sold. */
function Reorder({ order }: { order: AccountOrderDetail }) {
  const add = useBasketStore((state) => state.add);
  const [status, setStatus] = useState<{ ok?: string; error?: string }>({});
  const [busy, setBusy] = useState(false);
  const reorder = async () => {
    setBusy(true);
    const results = await Promise.all(
      order.lines.map(async (line) => {
        try {
          const { data } = await call('POST /api/product/variant/detail', { body: { v_id: line.v_id } });
          if (data.v_availability === 'unavailable') return false;
          add({ v_id: line.v_id, amount: line.amount, variantData: data, isComponent: false, isRequired: false });
          return true;
        } catch {
          return false;
        }
      }),
    );
    const added = results.filter(Boolean).length;
    setBusy(false);
    if (added === 0) setStatus({ error: 'Tovar z tejto objednávky už nie je v ponuke.' });
    else
      setStatus({
        ok:
          added === results.length
            ? 'Tovar je v košíku za dnešné ceny.'
            : `Do košíka sme vložili ${added} z ${results.length} položiek; ostatné už nie sú v ponuke.`,
      });
  };
  return (
    <div>
      <button type="button" className="button" disabled={busy} onClick={() => void reorder()}>
        Objednať znova
      </button>
      <StatusMessage ok={status.ok ?? null} error={status.error ?? null} />
      {status.ok && (
        <p>
          <Link to={shopPaths.cart()}>Prejsť do košíka</Link>
        </p>
      )}
    </div>
  );
}

/** Withdrawal from the contract: choose lines, then confirm in a second step. */
function Withdrawal({ order, onChanged }: { order: AccountOrderDetail; onChanged: (next: AccountOrderDetail) => void }) {
  const [step, setStep] = useState<'closed' | 'choose' | 'confirm'>('closed');
  const [chosen, setChosen] = useState<number[]>([]);
  const [status, setStatus] = useState<{ ok?: string; error?: string }>({});
  const open = order.lines.filter((l) => !l.withdrawn);
  const selected = open.filter((l) => chosen.includes(l.itemId));
  const confirm = async () => {
    try {
      const { data } = await call('POST /api/account/orders/:token/withdraw', {
        params: { token: order.token },
        body: { itemIds: chosen, confirm: true },
      });
      setStep('closed');
      setChosen([]);
      setStatus({ ok: 'Odstúpenie od zmluvy sme prijali. Potvrdenie sme vám poslali e-mailom.' });
      onChanged(data);
    } catch (caught) {
      setStatus({ error: errorMessage(caught, 'Odstúpenie sa nepodarilo odoslať.') });
    }
  };
  return (
    <section className="acc-card" aria-labelledby="acc-withdrawal">
      <h2 id="acc-withdrawal">Odstúpenie od zmluvy</h2>
      <StatusMessage ok={status.ok ?? null} error={status.error ?? null} />
      {!order.canWithdraw ? (
        <p>{order.withdrawalBlockedReason}</p>
      ) : step === 'closed' ? (
        <>
          <p>
            Ako spotrebiteľ môžete od zmluvy odstúpiť bez udania dôvodu do {order.withdrawalUntil ? formatDate(order.withdrawalUntil) : ''}{' '}
            (14 dní od doručenia), od celej objednávky alebo od niektorých položiek.
          </p>
          <button
            type="button"
            className="button"
            onClick={() => {
              setStatus({});
              setStep('choose');
            }}
          >
            Odstúpiť od zmluvy…
          </button>
        </>
      ) : step === 'choose' ? (
        <fieldset className="acc-fieldset">
          <legend>Vyberte položky, od ktorých odstupujete</legend>
          {open.map((line) => (
            <label key={line.itemId} className="acc-check">
              <input
                type="checkbox"
                checked={chosen.includes(line.itemId)}
                onChange={(event) => setChosen(event.target.checked ? [...chosen, line.itemId] : chosen.filter((id) => id !== line.itemId))}
              />
              {line.p_name} ({line.v_name}), {line.amount} {line.v_unit}
            </label>
          ))}
          <div className="acc-actions">
            <button type="button" className="button" onClick={() => setChosen(open.map((l) => l.itemId))}>
              Vybrať všetko
            </button>
            <button type="button" className="button button--primary" disabled={chosen.length === 0} onClick={() => setStep('confirm')}>
              Pokračovať
            </button>
            <button type="button" className="button" onClick={() => setStep('closed')}>
              Zrušiť
            </button>
          </div>
        </fieldset>
      ) : (
        <div role="group" aria-label="Potvrdenie odstúpenia">
          <p>
            <strong>
              {selected.length === open.length
                ? 'Odstupujete od celej (zostávajúcej) objednávky:'
                : 'Odstupujete od zmluvy pre tieto položky:'}
            </strong>
          </p>
          <ul>
            {selected.map((l) => (
              <li key={l.itemId}>
                {l.p_name} ({l.v_name}), {l.amount} {l.v_unit} – {formatPrice(l.lineTotal)}
              </li>
            ))}
          </ul>
          <p>Tovar nám pošlete späť do 14 dní; peniaze vrátime do 14 dní od prijatia odstúpenia.</p>
          <div className="acc-actions">
            <button type="button" className="button button--primary" onClick={() => void confirm()}>
              Potvrdiť odstúpenie od zmluvy
            </button>
            <button type="button" className="button" onClick={() => setStep('choose')}>
              Späť
            </button>
          </div>
        </div>
      )}
    </section>
  );
}

function OrderDetailContent({ token }: { token: string }) {
  const loaded = useResource(resource('GET /api/account/orders/:token', { params: { token } }), { select: dataOf });
  const [fresh, setFresh] = useState<AccountOrderDetail | null>(null);
  usePageMeta({ title: loaded.data ? `Objednávka č. ${loaded.data.number}` : 'Objednávka' });
  if (loaded.status === 'error') return <p role="alert">Objednávku sa nepodarilo načítať.</p>;
  if (!loaded.data) return <div aria-busy="true" className="page-skeleton" />;
  const order = fresh ?? loaded.data;
  const c = order.contact;
  return (
    <>
      <h1>Objednávka č. {order.number}</h1>
      <dl className="acc-profile">
        <dt>Vytvorená</dt>
        <dd>{formatDate(order.createdAt)}</dd>
        <dt>Stav</dt>
        <dd>
          <span className={`acc-state acc-state--${order.state}`} data-testid="order-state">
            {ORDER_STATE_LABELS[order.state]}
          </span>
        </dd>
        <dt>Platba</dt>
        <dd data-testid="payment-state">
          {order.payment.name} – {PAYMENT_LABELS[order.paymentStatus]}
        </dd>
        <dt>Doprava</dt>
        <dd>{order.shipping.name}</dd>
        <dt>Fakturačná adresa</dt>
        <dd>
          {c.name}, {c.billing.street}, {formatZip(c.billing.zip)} {c.billing.city}
          {c.company ? ` (${c.company.name}, IČO ${c.company.ico})` : ''}
        </dd>
        {c.delivery && (
          <>
            <dt>Dodacia adresa</dt>
            <dd>
              {c.delivery.name}, {c.delivery.street}, {formatZip(c.delivery.zip)} {c.delivery.city}
            </dd>
          </>
        )}
        {order.pickupPoint && (
          <>
            <dt>Výdajné miesto</dt>
            <dd data-testid="pickup-point">
              {order.pickupPoint.name}, {order.pickupPoint.street}, {formatZip(order.pickupPoint.zip)} {order.pickupPoint.city} (
              {order.pickupPoint.hours})
            </dd>
          </>
        )}
      </dl>
      <div className="acc-actions">
        <InvoiceButton order={order} />
        {order.canRetryPayment && <PayAgain token={order.token} />}
      </div>

      <table className="acc-table">
        <caption>Položky objednávky</caption>
        <thead>
          <tr>
            <th scope="col">Tovar</th>
            <th scope="col">Množstvo</th>
            <th scope="col">Spolu</th>
          </tr>
        </thead>
        <tbody>
          {order.lines.map((line) => (
            <tr key={line.itemId} data-testid="order-line">
              <td>
                {line.p_name} <small>({line.v_name})</small>
                {line.withdrawn && <span className="acc-badge">Odstúpené</span>}
                {order.canComplain && !line.withdrawn && (
                  <>
                    {' '}
                    <Link to={shopPaths.complaints({ orderToken: order.token, itemId: line.itemId })} className="acc-inline-link">
                      Reklamovať
                    </Link>
                  </>
                )}
              </td>
              <td>
                {line.amount} {line.v_unit} × {formatPrice(line.unitPrice)}
              </td>
              <td>{formatPrice(line.lineTotal)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <dl className="acc-totals">
        {totalsRows(order).map((row, i) => {
          const total = row.kind === 'total' ? 'acc-total' : undefined;
          return (
            <Fragment key={i}>
              <dt className={total}>{row.label}</dt>
              <dd className={total} data-testid={row.kind === 'total' ? 'order-total' : undefined}>
                {row.shown}
              </dd>
            </Fragment>
          );
        })}
      </dl>

      <section aria-labelledby="acc-history">
        <h2 id="acc-history">História stavov</h2>
        <ol className="acc-history" data-testid="order-history">
          {order.history.map((entry, i) => (
            <li key={`${entry.state}-${i}`}>
              <strong>{ORDER_STATE_LABELS[entry.state]}</strong> – {formatDate(entry.at)}
              {entry.note ? ` (${entry.note})` : ''}
            </li>
          ))}
        </ol>
      </section>

      {order.withdrawals.length > 0 && (
        <section aria-labelledby="acc-withdrawals">
          <h2 id="acc-withdrawals">Vaše odstúpenia od zmluvy</h2>
          <ul>
            {order.withdrawals.map((w) => (
              <li key={w.id}>
                {formatDate(w.createdAt)}: {w.wholeOrder ? 'celá objednávka' : countSk(w.itemIds.length, ITEM_FORMS)}, vrátime{' '}
                {formatPrice(w.refund)}
              </li>
            ))}
          </ul>
        </section>
      )}

      <Reorder order={order} />
      <Withdrawal order={order} onChanged={setFresh} />
      <p>
        <Link to={shopPaths.orders()}>Späť na objednávky</Link>
      </p>
    </>
  );
}

export default function OrderDetailPage() {
  useAccountStyles();
  const { ordertoken = '' } = useParams();
  return (
    <RequireSignIn>
      <section>
        <OrderDetailContent token={ordertoken} />
      </section>
    </RequireSignIn>
  );
}
