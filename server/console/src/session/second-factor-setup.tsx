import { useState, type FormEvent } from 'react';
import type { ApiCalls } from '@shop/shared-kernel/contract';
import { call, messageOf, sessionEnded } from '../api.ts';
import { useSession, type OperatorSession } from './session.tsx';

type Started = ApiCalls['POST /api/ops/second-factor']['answer']['data'];

/**
 * Setting up the second factor, the only thing an operator without one may do: a QR code for the
 * authenticator app (and its key to type by hand), confirmed by a first code; then the ten recovery
 * codes, shown this once.
 */
export function SecondFactorSetup() {
  const { operator, signedIn, ended } = useSession();
  const [started, setStarted] = useState<Started | null>(null);
  const [code, setCode] = useState('');
  const [codes, setCodes] = useState<string[] | null>(null);
  const [confirmed, setConfirmed] = useState<OperatorSession | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (failure) {
      if (sessionEnded(failure)) ended();
      else setError(messageOf(failure));
    } finally {
      setBusy(false);
    }
  };
  const start = () =>
    run(async () => {
      setStarted((await call('POST /api/ops/second-factor')).data);
    });
  const confirm = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      const answer = await call('POST /api/ops/second-factor/confirm', { body: { code: code.trim() } });
      setCodes(answer.data.recoveryCodes);
      setConfirmed(answer.data.session);
    });
  };

  if (codes && confirmed) {
    return (
      <section className="ops">
        <h1>Záložné kódy</h1>
        <p>
          Druhý faktor je nastavený. Ak stratíte telefón, prihlásite sa jedným z týchto kódov (každý platí raz). Uložte si ich mimo
          telefónu: <strong>zobrazia sa len teraz.</strong>
        </p>
        <ol className="ops__codes" data-testid="recovery-codes">
          {codes.map((recovery) => (
            <li key={recovery}>
              <code>{recovery}</code>
            </li>
          ))}
        </ol>
        <button type="button" className="button button--primary" onClick={() => signedIn(confirmed)}>
          Kódy mám uložené, pokračovať
        </button>
      </section>
    );
  }

  return (
    <section className="ops">
      <h1>Nastavenie druhého faktora</h1>
      <p>
        {operator?.name}, pred prvou akciou si nastavte overovaciu aplikáciu v telefóne (napríklad Google Authenticator, Microsoft
        Authenticator alebo FreeOTP). Bez nej konzola nedovolí nič iné.
      </p>
      {!started ? (
        <button type="button" className="button button--primary" disabled={busy} onClick={() => void start()}>
          Nastaviť druhý faktor
        </button>
      ) : (
        <>
          <ol>
            <li>V aplikácii pridajte účet naskenovaním QR kódu.</li>
            <li>Ak kód naskenovať nemôžete, zadajte kľúč ručne.</li>
            <li>Opíšte 6-miestny kód, ktorý aplikácia ukáže.</li>
          </ol>
          <img className="ops__qr" src={started.qr} width={240} height={240} alt="QR kód pre overovaciu aplikáciu" />
          <p>
            Kľúč: <code data-testid="totp-secret">{started.secret}</code>
          </p>
          <form className="ops__form" onSubmit={confirm}>
            <label htmlFor="ops-first-code">Kód z aplikácie</label>
            <input
              id="ops-first-code"
              autoComplete="one-time-code"
              inputMode="numeric"
              pattern="[0-9]{6}"
              maxLength={6}
              value={code}
              onChange={(event) => setCode(event.target.value)}
              required
            />
            <button type="submit" className="button button--primary" disabled={busy}>
              Potvrdiť
            </button>
          </form>
        </>
      )}
      {error && <p role="alert">{error}</p>}
    </section>
  );
}
