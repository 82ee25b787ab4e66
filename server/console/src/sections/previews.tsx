import { useState } from 'react';
import { call, messageOf, sessionEnded } from '../api.ts';
import { PART_LABELS, time } from '../format.ts';
import { useSession } from '../session/session.tsx';
import { useLoad } from '../use-load.ts';

/**
 * The preview links that last: which area's version (or a local override: the build on a developer's
 * machine, marked with its loopback origin), who asked for it, whether a browser opened it
 * (a link opens in one browser only) and until when; each revoked on its own (its browser gets the
 * version in force from its next page). `changed` reloads the list after a move made a new link.
 */
export function Previews({ changed }: { changed: number }) {
  const { ended, withFreshCode } = useSession();
  const { data, reload } = useLoad(async () => (await call('GET /api/ops/releases/previews')).data, [changed]);
  const [message, setMessage] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  if (!data) return null;

  const revoke = async (id: string, what: string) => {
    if (!window.confirm(`Zrušiť náhľad ${what}? Prehliadač, ktorý ho otvoril, dostane od ďalšej stránky verziu v prevádzke.`)) return;
    setBusy(true);
    try {
      await withFreshCode(() => call('POST /api/ops/releases/previews/:id/revoke', { params: { id }, body: {} }));
      setMessage({ kind: 'ok', text: `Náhľad ${what} je zrušený.` });
      reload();
    } catch (failure) {
      if (sessionEnded(failure)) ended();
      else setMessage({ kind: 'error', text: messageOf(failure) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <h2>Náhľady</h2>
      {message && (
        <p role={message.kind === 'error' ? 'alert' : 'status'} className={`ops__message ops__message--${message.kind}`}>
          {message.text}
        </p>
      )}
      {data.length === 0 ? (
        <p data-testid="ops-previews-none">Žiadny odkaz na náhľad neplatí.</p>
      ) : (
        <ul className="ops__findings" data-testid="ops-previews">
          {data.map((preview) => {
            const what = `${PART_LABELS[preview.area] ?? preview.area} ${preview.version}`;
            return (
              <li key={preview.id} data-preview={preview.id}>
                <strong>
                  {PART_LABELS[preview.area] ?? preview.area} <code>{preview.version}</code>
                </strong>{' '}
                {preview.local && (
                  <span data-testid="ops-preview-local">
                    · lokálna zostava z <code>{preview.local}</code>{' '}
                  </span>
                )}
                · vydal {preview.createdBy} {time(preview.createdAt)} ·{' '}
                {preview.openedAt ? `otvorený v prehliadači ${time(preview.openedAt)}` : 'zatiaľ neotvorený'} · platí do{' '}
                {time(preview.expiresAt)}{' '}
                <button type="button" className="button" disabled={busy} onClick={() => void revoke(preview.id, what)}>
                  Zrušiť náhľad<span className="visually-hidden"> {what}</span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </>
  );
}
