import { useEffect, useState } from 'react';
import { Link, useSearchParams, call, download, resource } from '@shop/shared-kernel';
import {
  COMPLAINT_PHOTO_MAX_BYTES,
  COMPLAINT_PHOTO_MAX_COUNT,
  COMPLAINT_PHOTO_TYPES,
  COMPLAINT_REASON_LABELS,
  COMPLAINT_STATE_LABELS,
  daysLeft,
  formatDate,
  countSk,
} from '@shop/shared-kernel/rules';
import { dataOf, usePageMeta, useResource, useSubmit } from '@shop/shared-kernel/react';
import { shopPaths, type Complaint, type ComplaintReason } from '@shop/shared-kernel/contract';
import { errorMessage } from '../components/field.tsx';
import { RequireSignIn } from '../components/require-sign-in.tsx';
import { StatusMessage } from '../components/status-message.tsx';
import { useAccountStyles } from '../use-account-styles.ts';

const DAY_FORMS = { one: 'deň', few: 'dni', other: 'dní' };

/** A photo the API serves only to its owner: fetched with the token, shown from a blob URL. */
function Photo({ complaintId, photoId }: { complaintId: number; photoId: number }) {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    let objectUrl: string | null = null;
    let cancelled = false;
    download('GET /api/account/complaints/:id/photos/:photoId', { params: { id: complaintId, photoId } }).then(
      (blob) => {
        if (cancelled) return;
        objectUrl = URL.createObjectURL(blob);
        setUrl(objectUrl);
      },
      () => undefined,
    );
    return () => {
      cancelled = true;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [complaintId, photoId]);
  return url ? (
    <img src={url} alt="Fotografia k reklamácii" className="acc-photo" />
  ) : (
    <span className="acc-photo acc-photo--empty" aria-hidden="true" />
  );
}

function ComplaintForm({ orderToken, itemId, onFiled }: { orderToken: string; itemId: number; onFiled: () => void }) {
  const order = useResource(resource('GET /api/account/orders/:token', { params: { token: orderToken } }), { select: dataOf });
  const [reason, setReason] = useState<ComplaintReason | ''>('');
  const [description, setDescription] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const { onSubmit, busy, error } = useSubmit(
    async () => {
      if (!reason) return 'Vyberte dôvod reklamácie.';
      if (description.trim().length < 10) return 'Popíšte, prosím, vadu tovaru (aspoň 10 znakov).';
      if (files.length > COMPLAINT_PHOTO_MAX_COUNT) return `Priložte najviac ${COMPLAINT_PHOTO_MAX_COUNT} fotografií.`;
      if (files.some((f) => f.size > COMPLAINT_PHOTO_MAX_BYTES)) return 'Každá fotografia môže mať najviac 5 MB.';
      const form = new FormData();
      form.set('orderToken', orderToken);
      form.set('itemId', String(itemId));
      form.set('reason', reason);
      form.set('description', description.trim());
      for (const file of files) form.append('photos', file, file.name);
      await call('POST /api/account/complaints', { body: form });
      onFiled();
    },
    (caught) => errorMessage(caught, 'Reklamáciu sa nepodarilo odoslať. Skúste to znova.'),
  );
  if (order.status === 'error') return <p role="alert">Objednávku sa nepodarilo načítať.</p>;
  if (!order.data) return <div aria-busy="true" className="page-skeleton" />;
  const line = order.data.lines.find((l) => l.itemId === itemId);
  if (!line) return <p role="alert">Položka sa v objednávke nenašla.</p>;
  if (!order.data.canComplain || line.withdrawn) return <p role="alert">Reklamovať môžete tovar z doručenej objednávky.</p>;

  return (
    <form className="acc-form" onSubmit={onSubmit} noValidate aria-labelledby="acc-new-complaint">
      <h2 id="acc-new-complaint">Nová reklamácia</h2>
      <p>
        Objednávka č. {order.data.number}:{' '}
        <strong>
          {line.p_name} ({line.v_name})
        </strong>
        , {line.amount} {line.v_unit}
      </p>
      <div className="acc-field">
        <label htmlFor="complaint-reason">Dôvod reklamácie</label>
        <select id="complaint-reason" value={reason} onChange={(event) => setReason(event.target.value as ComplaintReason)}>
          <option value="">Vyberte…</option>
          {(Object.keys(COMPLAINT_REASON_LABELS) as ComplaintReason[]).map((key) => (
            <option key={key} value={key}>
              {COMPLAINT_REASON_LABELS[key]}
            </option>
          ))}
        </select>
      </div>
      <div className="acc-field">
        <label htmlFor="complaint-description">Popis vady</label>
        <textarea
          id="complaint-description"
          rows={5}
          maxLength={2000}
          value={description}
          onChange={(event) => setDescription(event.target.value)}
        />
      </div>
      <div className="acc-field">
        <label htmlFor="complaint-photos">Fotografie (nepovinné)</label>
        <input
          id="complaint-photos"
          type="file"
          multiple
          accept={COMPLAINT_PHOTO_TYPES.join(',')}
          aria-describedby="complaint-photos-hint"
          onChange={(event) => setFiles(Array.from(event.target.files ?? []))}
        />
        <small id="complaint-photos-hint">JPEG, PNG alebo WebP, najviac {COMPLAINT_PHOTO_MAX_COUNT} fotografií po 5 MB.</small>
      </div>
      {error && (
        <p className="acc-error" role="alert">
          {error}
        </p>
      )}
      <div className="acc-actions">
        <button type="submit" className="button button--primary" disabled={busy}>
          {busy ? 'Odosielam…' : 'Odoslať reklamáciu'}
        </button>
        <Link to={shopPaths.order(orderToken)}>Späť na objednávku</Link>
      </div>
    </form>
  );
}

function ComplaintList({ complaints }: { complaints: Complaint[] }) {
  if (complaints.length === 0) {
    return (
      <p>
        Nemáte žiadne reklamácie. Tovar z doručenej objednávky reklamujete v jej detaile v časti{' '}
        <Link to={shopPaths.orders()}>Objednávky</Link>.
      </p>
    );
  }
  return (
    <ul className="acc-cards">
      {complaints.map((c) => {
        const left = daysLeft(c.settleBy);
        const open = c.state === 'received' || c.state === 'in_progress';
        return (
          <li key={c.id} className="acc-card" data-testid="complaint">
            <p>
              <strong>{c.productName}</strong>
              <br />
              Objednávka <Link to={shopPaths.order(c.orderToken)}>č. {c.orderNumber}</Link>, podaná {formatDate(c.createdAt)}
            </p>
            <p>Dôvod: {COMPLAINT_REASON_LABELS[c.reason]}</p>
            <p className="acc-quote">{c.description}</p>
            <p>
              Stav:{' '}
              <span className={`acc-state acc-state--${c.state}`} data-testid="complaint-state">
                {COMPLAINT_STATE_LABELS[c.state]}
              </span>
              {open && (
                <>
                  {' '}
                  · vybavíme najneskôr do {formatDate(c.settleBy)}
                  {left >= 0 ? ` (zostáva ${countSk(left, DAY_FORMS)})` : ''}
                </>
              )}
            </p>
            {c.resolution && <p>Vybavenie: {c.resolution}</p>}
            {c.photos.length > 0 && (
              <div className="acc-photos">
                {c.photos.map((p) => (
                  <Photo key={p.id} complaintId={c.id} photoId={p.id} />
                ))}
              </div>
            )}
          </li>
        );
      })}
    </ul>
  );
}

function Complaints() {
  const [params, setParams] = useSearchParams();
  const list = useResource(resource('GET /api/account/complaints'), { select: dataOf });
  const [ok, setOk] = useState<string | null>(null);
  const orderToken = params.get('order');
  const itemId = Number(params.get('item'));
  const filing = orderToken && Number.isSafeInteger(itemId) && itemId > 0;
  return (
    <>
      <StatusMessage ok={ok} />
      {filing && (
        <ComplaintForm
          orderToken={orderToken}
          itemId={itemId}
          onFiled={() => {
            setOk('Reklamáciu sme prijali. Vybavíme ju najneskôr do 30 dní.');
            setParams({}, { replace: true });
            list.reload();
          }}
        />
      )}
      <h2>Moje reklamácie</h2>
      {list.status === 'error' ? (
        <p role="alert">Reklamácie sa nepodarilo načítať.</p>
      ) : !list.data ? (
        <div aria-busy="true" className="page-skeleton" />
      ) : (
        <ComplaintList complaints={list.data} />
      )}
    </>
  );
}

export default function ComplaintsPage() {
  useAccountStyles();
  usePageMeta({ title: 'Reklamácie' });
  return (
    <RequireSignIn>
      <section>
        <h1>Reklamácie</h1>
        <Complaints />
      </section>
    </RequireSignIn>
  );
}
