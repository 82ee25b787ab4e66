import { useState } from 'react';
import type { ReleasePart } from '@shop/shared-kernel/contract';
import { call, messageOf, sessionEnded } from '../api.ts';
import { time } from '../format.ts';
import { useSession } from '../session/session.tsx';
import { useLoad } from '../use-load.ts';
import { useTitle } from '../use-title.ts';
import { Audit } from '../sections/audit.tsx';
import { Backups } from '../sections/backups.tsx';
import { CspViolations } from '../sections/csp.tsx';
import { History } from '../sections/history.tsx';
import { Integrity } from '../sections/integrity.tsx';
import { Inventory } from '../sections/inventory.tsx';
import { PartRow } from '../sections/part-row.tsx';
import { Previews } from '../sections/previews.tsx';
import { FeatureFlags } from '../sections/feature-flags.tsx';
import type { Act, ReleaseAction, ReleaseCall } from '../sections/release-actions.ts';
import { Refunds } from '../sections/refunds.tsx';
import { RenderFailures } from '../sections/render-failures.tsx';
import { ClientErrors } from '../sections/client-errors.tsx';
import { WebVitals } from '../sections/vitals.tsx';

/** The console's first page: versions in force, pins, canaries, health, history; rollback and the rest with the same code as `pnpm release`. */
export function ReleasesPage() {
  const { ended, withFreshCode } = useSession();
  const { data, error, reload } = useLoad(async () => (await call('GET /api/ops/releases')).data, []);
  const [message, setMessage] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const [busy, setBusy] = useState<ReleasePart | null>(null);
  // Counts the moves made here: the previews' list is read again after each (a move may make a link).
  const [moves, setMoves] = useState(0);
  useTitle('Vydania');

  const act: Act = async (part, action, body, done) => {
    setBusy(part);
    try {
      // One call of the contract per move: the move names the call.
      const move = call as <A extends ReleaseAction>(
        name: `POST /api/ops/releases/:part/${A}`,
        args: { params: { part: string }; body: ReleaseCall<A>['body'] },
      ) => Promise<ReleaseCall<A>['answer']>;
      const result = await withFreshCode(() => move(`POST /api/ops/releases/:part/${action}`, { params: { part }, body }));
      setMessage({ kind: 'ok', text: done(result as never) });
      reload();
      setMoves((count) => count + 1);
    } catch (failure) {
      if (sessionEnded(failure)) ended();
      else setMessage({ kind: 'error', text: messageOf(failure) });
    } finally {
      setBusy(null);
    }
  };

  return (
    <section className="ops">
      <h1>Vydania</h1>
      {message && (
        <p role={message.kind === 'error' ? 'alert' : 'status'} className={`ops__message ops__message--${message.kind}`}>
          {message.text}
        </p>
      )}
      {error && <p role="alert">{error}</p>}
      {data && (
        <>
          {!data.registry && <p role="alert">Na tomto serveri nie je register vydaní. Skontrolujte DATA_DIR.</p>}
          {data.lock && (
            <p className="ops__lock" data-testid="ops-lock">
              Zámok vydaní drží: {data.lock.what} (proces {data.lock.pid} na {data.lock.host} od {time(data.lock.since)})
              {data.lock.stale ? ` – zastaraný (${data.lock.staleBecause}), ďalšie vydanie alebo návrat ho uvoľní` : ''}.
            </p>
          )}
          <p>
            Revízia registra: <code>{data.revision}</code>
          </p>
          <table className="ops__table">
            <caption className="visually-hidden">Verzie v prevádzke</caption>
            <thead>
              <tr>
                <th scope="col">Časť</th>
                <th scope="col">Verzia v prevádzke</th>
                <th scope="col">Akcia</th>
              </tr>
            </thead>
            <tbody>
              {data.parts.map((part) => (
                <PartRow key={part.part} data={data} part={part} busy={busy !== null} act={act} />
              ))}
            </tbody>
          </table>
          <History moves={data.history} />
        </>
      )}
      <Previews changed={moves} />
      <FeatureFlags onChanged={() => setMoves((count) => count + 1)} />
      <WebVitals />
      <Refunds />
      <Integrity />
      <RenderFailures />
      <ClientErrors />
      <Backups />
      <Audit changed={moves} />
      <Inventory />
      <CspViolations />
    </section>
  );
}
