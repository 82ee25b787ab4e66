import { useEffect, useRef, useState, type FormEvent } from 'react';
import { call, messageOf } from '../api.ts';
import { useSession } from './session.tsx';

/**
 * The operator's sign-in: name, password and the code from the authenticator app (or a recovery
 * code); an operator who has not set up the second factor yet leaves the code empty and sets it up next.
 */
export function SignIn() {
  const { notice, signedIn } = useSession();
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const errorRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (error) errorRef.current?.focus();
  }, [error]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const typed = code.trim();
      const answer = await call('POST /api/ops/session', {
        body: { name: name.trim(), password, ...(typed ? { code: typed } : {}) },
      });
      setPassword('');
      setCode('');
      signedIn(answer.data);
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setBusy(false);
    }
  };

  const shown = error ?? notice;
  const described = shown ? 'sign-in-message' : undefined;
  return (
    <section className="ops">
      <h1>Prihlásenie operátora</h1>
      <form className="ops__form" onSubmit={(event) => void submit(event)}>
        <label htmlFor="ops-name">Meno</label>
        <input
          id="ops-name"
          name="username"
          autoComplete="username"
          maxLength={40}
          value={name}
          onChange={(event) => setName(event.target.value)}
          required
          aria-invalid={error ? true : undefined}
          aria-describedby={described}
        />
        <label htmlFor="ops-password">Heslo</label>
        <input
          id="ops-password"
          name="password"
          type="password"
          autoComplete="current-password"
          maxLength={200}
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          required
          aria-invalid={error ? true : undefined}
          aria-describedby={described}
        />
        <label htmlFor="ops-code">Kód z aplikácie</label>
        <input
          id="ops-code"
          name="one-time-code"
          autoComplete="one-time-code"
          inputMode="text"
          maxLength={20}
          value={code}
          onChange={(event) => setCode(event.target.value)}
          aria-describedby="ops-code-hint"
        />
        <small id="ops-code-hint">
          6 číslic z overovacej aplikácie alebo jeden zo záložných kódov. Pri prvom prihlásení pole nechajte prázdne: druhý faktor si
          nastavíte hneď potom.
        </small>
        <button type="submit" className="button button--primary" disabled={busy}>
          Prihlásiť sa
        </button>
      </form>
      {shown && (
        <p role="alert" id="sign-in-message" ref={errorRef} tabIndex={-1}>
          {shown}
        </p>
      )}
    </section>
  );
}
