import { useEffect, useRef, useState, type FormEvent } from 'react';
import { messageOf } from '../api.ts';
import { useSession } from './session.tsx';

/** Asks for a fresh code before a release action (the server wants one typed within 5 minutes). */
export function CodePrompt() {
  const { codeAsked } = useSession();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (codeAsked) input.current?.focus();
  }, [codeAsked]);
  if (!codeAsked) return null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await codeAsked.submit(code.trim());
      setCode('');
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="ops__prompt" role="dialog" aria-modal="false" aria-labelledby="code-prompt-title">
      <h2 id="code-prompt-title">Potvrďte akciu kódom</h2>
      <p>Zmena vydaní potrebuje kód z overovacej aplikácie, zadaný za posledných 5 minút.</p>
      <form className="ops__form" onSubmit={(event) => void submit(event)}>
        <label htmlFor="ops-reauth-code">Kód z aplikácie</label>
        <input
          id="ops-reauth-code"
          ref={input}
          autoComplete="one-time-code"
          maxLength={20}
          value={code}
          onChange={(event) => setCode(event.target.value)}
          required
        />
        <div className="ops__actions">
          <button type="submit" className="button button--primary" disabled={busy}>
            Potvrdiť
          </button>
          <button type="button" className="button" onClick={codeAsked.cancel}>
            Zrušiť
          </button>
        </div>
      </form>
      {error && <p role="alert">{error}</p>}
    </section>
  );
}
