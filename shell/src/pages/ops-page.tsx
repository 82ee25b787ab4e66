import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { formatDate, formatPrice, usePageMeta, type ApiCalls, type PaymentRefund, type ReleasePart, type ReleaseStatus } from '@shop/shared-kernel';

const TOKEN_KEY = 'shop:ops-token';
type Rollback = ApiCalls['POST /api/ops/releases/:part/rollback']['answer'];

const partLabels: Record<ReleasePart, string> = {
  shell: 'Shell (rámec)',
  catalog: 'Katalóg',
  checkout: 'Košík a objednávka',
  account: 'Zákaznícky účet',
  content: 'Obsah',
};

async function opsFetch<T>(token: string, path: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(`/api/ops${path}`, {
    ...init,
    cache: 'no-store',
    headers: { authorization: `Bearer ${token}`, ...(init.body ? { 'content-type': 'application/json' } : {}) },
  });
  const body = (await response.json().catch(() => null)) as { error?: { message: string } } | null;
  if (!response.ok) throw Object.assign(new Error(body?.error?.message ?? `Chyba ${response.status}`), { status: response.status });
  return body as T;
}

const time = (iso: string | null) => (iso ? `${formatDate(iso)} ${iso.slice(11, 16)} UTC` : '—');

const REFUND_STATUS: Record<PaymentRefund['status'], string> = { pending: 'čaká na bránu', refunded: 'vrátená', failed: 'brána odmietla – skontrolujte' };

/** Card payments the shop refunds (a second payment of an order, or one after it ended). */
function Refunds({ token }: { token: string }) {
  const [refunds, setRefunds] = useState<PaymentRefund[] | null>(null);
  useEffect(() => {
    void fetch('/api/operator/payments/refunds', { cache: 'no-store', headers: { 'x-operator-token': token } })
      .then(async (response) => (response.ok ? ((await response.json()) as { data: PaymentRefund[] }).data : null))
      .then(setRefunds, () => setRefunds(null));
  }, [token]);
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
              Objednávka č. {r.orderNumber} · {formatPrice(r.amountCents * 10)} · {REFUND_STATUS[r.status]} · {r.reason ?? ''} · {time(r.refundedAt ?? r.paidAt)}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

/** Operator page: versions in force, history of each part, and rollback (the same code as `pnpm release rollback`). */
export function OpsPage() {
  usePageMeta({ title: 'Vydania' });
  const [token, setToken] = useState(() => sessionStorage.getItem(TOKEN_KEY) ?? '');
  const [draft, setDraft] = useState('');
  const [data, setData] = useState<ReleaseStatus | null>(null);
  const [message, setMessage] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const [busy, setBusy] = useState<ReleasePart | null>(null);

  const load = useCallback(async () => {
    if (!token) return;
    try {
      setData((await opsFetch<{ data: ReleaseStatus }>(token, '/releases')).data);
    } catch (error) {
      if ((error as { status?: number }).status === 401) {
        sessionStorage.removeItem(TOKEN_KEY);
        setToken('');
      }
      setMessage({ kind: 'error', text: (error as Error).message });
    }
  }, [token]);

  useEffect(() => {
    void load();
  }, [load]);

  const signIn = (event: FormEvent) => {
    event.preventDefault();
    sessionStorage.setItem(TOKEN_KEY, draft.trim());
    setMessage(null);
    setToken(draft.trim());
  };

  const rollBack = async (part: ReleasePart) => {
    if (!window.confirm(`Vrátiť ${partLabels[part]} na predchádzajúcu verziu?`)) return;
    setBusy(part);
    try {
      const { data: result } = await opsFetch<Rollback>(token, `/releases/${part}/rollback`, { method: 'POST', body: '{}' });
      setMessage({ kind: 'ok', text: `${partLabels[part]}: ${result.from ?? '—'} → ${result.version}` });
      await load();
    } catch (error) {
      setMessage({ kind: 'error', text: (error as Error).message });
    } finally {
      setBusy(null);
    }
  };

  if (!token) {
    return (
      <section className="ops">
        <h1>Vydania</h1>
        <form className="ops__login" onSubmit={signIn}>
          <label htmlFor="ops-token">Operátorský token</label>
          <input id="ops-token" type="password" autoComplete="off" value={draft} onChange={(event) => setDraft(event.target.value)} required />
          <button type="submit" className="button button--primary">Pokračovať</button>
        </form>
        {message && <p role="alert">{message.text}</p>}
      </section>
    );
  }

  return (
    <section className="ops">
      <h1>Vydania</h1>
      {message && (
        <p role={message.kind === 'error' ? 'alert' : 'status'} className={`ops__message ops__message--${message.kind}`}>
          {message.text}
        </p>
      )}
      {data && (
        <>
          <p>Revízia registra: <code>{data.revision}</code></p>
          <table className="ops__table">
            <caption className="visually-hidden">Verzie v prevádzke</caption>
            <thead>
              <tr>
                <th scope="col">Časť</th>
                <th scope="col">Verzia v prevádzke</th>
                <th scope="col">Od</th>
                <th scope="col">Akcia</th>
              </tr>
            </thead>
            <tbody>
              {data.parts.map((part) => (
                <tr key={part.part} data-part={part.part}>
                  <th scope="row">{partLabels[part.part]}</th>
                  <td><code>{part.version ?? '—'}</code></td>
                  <td>{time(part.since)}{part.by ? ` · ${part.by}` : ''}</td>
                  <td>
                    <button type="button" className="button" disabled={busy !== null || !part.version} onClick={() => void rollBack(part.part)}>
                      Vrátiť späť<span className="visually-hidden"> {partLabels[part.part]}</span>
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <h2>História</h2>
          <ol className="ops__history" reversed>
            {[...data.history].reverse().map((move, index) => (
              <li key={`${move.at}-${index}`}>
                {time(move.at)} · {move.who} · {move.action === 'deploy' ? 'nasadenie' : 'návrat'} · {partLabels[move.part]}:{' '}
                <code>{move.from ?? '—'}</code> → <code>{move.to}</code>
              </li>
            ))}
          </ol>
        </>
      )}
      <Refunds token={token} />
    </section>
  );
}
