import { useState, type FormEvent } from 'react';
import { call, messageOf, sessionEnded } from '../api.ts';
import { useSession } from '../session/session.tsx';
import { useLoad } from '../use-load.ts';
import { useTitle } from '../use-title.ts';

/**
 * The stored redirects: an old address of the shop and where it moved (a path of the shop, or a
 * full address; the checkout's, the payment's and the account's only to a path of the shop).
 * Every change is in the audit log with the operator's name.
 */
export function RedirectsPage() {
  useTitle('Presmerovania');
  const { ended } = useSession();
  const { data: redirects, reload } = useLoad(async () => (await call('GET /api/operator/redirects')).data, []);
  const [oldUrl, setOldUrl] = useState('');
  const [newUrl, setNewUrl] = useState('');
  const [message, setMessage] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);

  const run = async (work: () => Promise<string>) => {
    setMessage(null);
    try {
      setMessage({ kind: 'ok', text: await work() });
      reload();
    } catch (failure) {
      if (sessionEnded(failure)) ended();
      else setMessage({ kind: 'error', text: messageOf(failure) });
    }
  };
  const store = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      const { data } = await call('PUT /api/operator/redirects', { body: { old_url: oldUrl.trim(), new_url: newUrl.trim() } });
      setOldUrl('');
      setNewUrl('');
      return `Uložené: ${data.old_url} → ${data.new_url}`;
    });
  };
  const remove = (old: string) =>
    run(async () => {
      await call('DELETE /api/operator/redirects', { query: { old_url: old } });
      return `Zrušené presmerovanie ${old}.`;
    });

  return (
    <section className="ops">
      <h1>Presmerovania</h1>
      <form className="ops__form" onSubmit={store}>
        <label htmlFor="redirect-old">Stará adresa (cesta obchodu)</label>
        <input
          id="redirect-old"
          placeholder="/stara-stranka"
          maxLength={2000}
          value={oldUrl}
          onChange={(event) => setOldUrl(event.target.value)}
          required
        />
        <label htmlFor="redirect-new">Nová adresa</label>
        <input
          id="redirect-new"
          placeholder="/nova-stranka"
          maxLength={2000}
          value={newUrl}
          onChange={(event) => setNewUrl(event.target.value)}
          required
        />
        <button type="submit" className="button button--primary">
          Uložiť presmerovanie
        </button>
      </form>
      {message && (
        <p className={`ops__message ops__message--${message.kind}`} role={message.kind === 'ok' ? 'status' : 'alert'}>
          {message.text}
        </p>
      )}
      {redirects && (
        <ul className="ops__redirects" data-testid="ops-redirects">
          {redirects.map((entry) => (
            <li key={entry.old_url}>
              <code>{entry.old_url}</code> → <code>{entry.new_url}</code>{' '}
              <button type="button" className="button" onClick={() => void remove(entry.old_url)}>
                Zrušiť<span className="visually-hidden"> {entry.old_url}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
