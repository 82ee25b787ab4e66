import { useState, type FormEvent } from 'react';
import { AREAS } from '@shop/shared-kernel/contract';
import { call, messageOf, sessionEnded } from '../api.ts';
import { PART_LABELS, time } from '../format.ts';
import { useSession } from '../session/session.tsx';
import { useLoad } from '../use-load.ts';

const shareLabel = (share: number) => (share >= 100 ? 'zapnutý' : share <= 0 ? 'vypnutý' : `zapnutý pre ${share} % prehliadačov`);

/**
 * Every area's feature switches: on, off or on for a share of browsers (the canary's sticky
 * bucket), who set each last and when; each switched here with a fresh code, a new one added by
 * name. Open pages of the shop follow within seconds, no release. `onChanged` tells the page (the
 * audit log is read again).
 */
export function FeatureFlags({ onChanged }: { onChanged: () => void }) {
  const { ended, withFreshCode } = useSession();
  const { data, reload } = useLoad(async () => (await call('GET /api/ops/flags')).data, []);
  const [message, setMessage] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [area, setArea] = useState<string>('checkout');
  const [name, setName] = useState('');
  const [share, setShare] = useState('0');
  if (!data) return null;

  const set = async (flagArea: string, flagName: string, flagShare: number) => {
    setBusy(true);
    try {
      const { data: changed } = await withFreshCode(() =>
        call('POST /api/ops/flags/:part/:name', { params: { part: flagArea, name: flagName }, body: { share: flagShare } }),
      );
      setMessage({ kind: 'ok', text: `Prepínač ${flagName} (${PART_LABELS[flagArea] ?? flagArea}) je ${shareLabel(changed.after)}.` });
      reload();
      onChanged();
    } catch (failure) {
      if (sessionEnded(failure)) ended();
      else setMessage({ kind: 'error', text: messageOf(failure) });
    } finally {
      setBusy(false);
    }
  };

  const add = (event: FormEvent) => {
    event.preventDefault();
    void set(area, name.trim(), Number(share));
  };

  return (
    <>
      <h2>Prepínače funkcií</h2>
      <p>
        Funkciu oblasti možno vypnúť alebo zapnúť bez nového vydania; otvorené stránky obchodu to prevezmú do niekoľkých sekúnd. Prepínač,
        ktorý tu nie je, je zapnutý. Najviac {data.maxPerArea} prepínačov na oblasť.
      </p>
      {message && (
        <p role={message.kind === 'error' ? 'alert' : 'status'} className={`ops__message ops__message--${message.kind}`}>
          {message.text}
        </p>
      )}
      {data.flags.length === 0 ? (
        <p data-testid="ops-flags-none">Žiadny prepínač nie je nastavený: všetky funkcie sú zapnuté.</p>
      ) : (
        <table className="ops__table" data-testid="ops-flags">
          <caption className="visually-hidden">Prepínače funkcií</caption>
          <thead>
            <tr>
              <th scope="col">Oblasť</th>
              <th scope="col">Prepínač</th>
              <th scope="col">Stav</th>
              <th scope="col">Nastavil</th>
              <th scope="col">Akcia</th>
            </tr>
          </thead>
          <tbody>
            {data.flags.map((flag) => {
              const on = flag.share > 0;
              return (
                <tr key={`${flag.area}/${flag.name}`} data-flag={`${flag.area}/${flag.name}`}>
                  <td>{PART_LABELS[flag.area] ?? flag.area}</td>
                  <td>
                    <code>{flag.name}</code>
                  </td>
                  <td>{shareLabel(flag.share)}</td>
                  <td>
                    {flag.updatedBy}, {time(flag.updatedAt)}
                  </td>
                  <td>
                    <button type="button" className="button" disabled={busy} onClick={() => void set(flag.area, flag.name, on ? 0 : 100)}>
                      {on ? 'Vypnúť' : 'Zapnúť'}
                      <span className="visually-hidden"> {flag.name}</span>
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <form className="ops__form" onSubmit={add} data-testid="ops-flag-form">
        <label>
          Oblasť{' '}
          <select value={area} onChange={(event) => setArea(event.target.value)}>
            {AREAS.map((value) => (
              <option key={value} value={value}>
                {PART_LABELS[value] ?? value}
              </option>
            ))}
          </select>
        </label>{' '}
        <label>
          Prepínač{' '}
          <input
            value={name}
            required
            maxLength={40}
            // The browser checks it with the `v` flag, where a dash in a class must be escaped.
            pattern={'[a-z][a-z0-9\\-]{0,39}'}
            title="Malé písmená, číslice a pomlčky, na začiatku písmeno (napr. card-payment)"
            onChange={(event) => setName(event.target.value)}
          />
        </label>{' '}
        <label>
          Zapnutý pre (%){' '}
          <input type="number" min={0} max={100} step={1} required value={share} onChange={(event) => setShare(event.target.value)} />
        </label>{' '}
        <button type="submit" className="button" disabled={busy}>
          Nastaviť
        </button>
      </form>
    </>
  );
}
