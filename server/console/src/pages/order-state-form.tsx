import { useState, type FormEvent } from 'react';
import type { ComplaintState, OrderState } from '@shop/shared-kernel/contract';
import { call, messageOf, sessionEnded } from '../api.ts';
import { useSession } from '../session/session.tsx';

const ORDER_STATES: Record<Exclude<OrderState, 'received' | 'withdrawn'>, string> = {
  paid: 'zaplatená',
  shipped: 'odoslaná',
  delivered: 'doručená',
  cancelled: 'zrušená',
};
const COMPLAINT_STATES: Record<ComplaintState, string> = {
  received: 'prijatá',
  in_progress: 'rieši sa',
  accepted: 'uznaná',
  rejected: 'zamietnutá',
};

/** An order's state (the number from the tools above) and a complaint's, each change in the audit log. */
export function OrderStateForm({ number }: { number: string }) {
  const { ended } = useSession();
  const [state, setState] = useState<keyof typeof ORDER_STATES>('shipped');
  const [note, setNote] = useState('');
  const [complaint, setComplaint] = useState('');
  const [complaintState, setComplaintState] = useState<ComplaintState>('in_progress');
  const [resolution, setResolution] = useState('');
  const [message, setMessage] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);

  const send = async (event: FormEvent, work: () => Promise<string>) => {
    event.preventDefault();
    setMessage(null);
    try {
      setMessage({ kind: 'ok', text: await work() });
    } catch (failure) {
      if (sessionEnded(failure)) ended();
      else setMessage({ kind: 'error', text: messageOf(failure) });
    }
  };
  const moveOrder = (event: FormEvent) =>
    send(event, async () => {
      if (!/^\d{6,16}$/.test(number)) throw new Error('Zadajte vyššie číslo objednávky.');
      const { data } = await call('POST /api/operator/orders/:number/state', {
        params: { number },
        body: { state, ...(note.trim() ? { note: note.trim() } : {}) },
      });
      return `Objednávka č. ${number} je teraz: ${data.state}.`;
    });
  const moveComplaint = (event: FormEvent) =>
    send(event, async () => {
      const id = Number(complaint);
      if (!Number.isInteger(id) || id < 1) throw new Error('Zadajte číslo reklamácie.');
      await call('POST /api/operator/complaints/:id/state', {
        params: { id },
        body: { state: complaintState, ...(resolution.trim() ? { resolution: resolution.trim() } : {}) },
      });
      return `Reklamácia č. ${id}: ${COMPLAINT_STATES[complaintState]}.`;
    });

  return (
    <>
      <h2>Stav objednávky</h2>
      <form className="ops__form" onSubmit={(event) => void moveOrder(event)}>
        <label htmlFor="order-state">Nový stav objednávky {number || '(číslo vyššie)'}</label>
        <select id="order-state" value={state} onChange={(event) => setState(event.target.value as keyof typeof ORDER_STATES)}>
          {Object.entries(ORDER_STATES).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
        <label htmlFor="order-note">Poznámka (nepovinné)</label>
        <input id="order-note" maxLength={500} value={note} onChange={(event) => setNote(event.target.value)} />
        <button type="submit" className="button">
          Zmeniť stav
        </button>
      </form>
      <h2>Stav reklamácie</h2>
      <form className="ops__form" onSubmit={(event) => void moveComplaint(event)}>
        <label htmlFor="complaint-id">Číslo reklamácie</label>
        <input
          id="complaint-id"
          inputMode="numeric"
          maxLength={10}
          value={complaint}
          onChange={(event) => setComplaint(event.target.value)}
        />
        <label htmlFor="complaint-state">Nový stav</label>
        <select id="complaint-state" value={complaintState} onChange={(event) => setComplaintState(event.target.value as ComplaintState)}>
          {Object.entries(COMPLAINT_STATES).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
        <label htmlFor="complaint-resolution">Riešenie (nepovinné)</label>
        <input id="complaint-resolution" maxLength={2000} value={resolution} onChange={(event) => setResolution(event.target.value)} />
        <button type="submit" className="button">
          Zmeniť stav reklamácie
        </button>
      </form>
      {message && (
        <p className={`ops__message ops__message--${message.kind}`} role={message.kind === 'ok' ? 'status' : 'alert'}>
          {message.text}
        </p>
      )}
    </>
  );
}
