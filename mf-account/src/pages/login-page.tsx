import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams, call, useAuthStore, useCouponStore } from '@shop/shared-kernel';
import { usePageMeta } from '@shop/shared-kernel/react';
import { useAccountStyles } from '../use-account-styles.ts';

/** Only same-site paths are followed after sign-in. */
function safeNext(next: string | null): string {
  return next && next.startsWith('/') && !next.startsWith('//') ? next : '/account/profile';
}

export default function LoginPage() {
  useAccountStyles();
  usePageMeta({ title: 'Prihlásenie', description: 'Prihláste sa do svojho zákazníckeho účtu.' });
  const login = useAuthStore((state) => state.login);
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [email, setEmail] = useState(() => params.get('email') ?? '');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!email.trim() || !password) {
      setError('Zadajte e-mail aj heslo.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const { data } = await call('POST /api/account/login', { body: { email: email.trim(), password } });
      // The API has set the HttpOnly session cookie; the page keeps only who is signed in, until when.
      login({ user: data.user, expiresAt: data.expiresAt });
      // The shopper's active coupon comes back into the basket (spec section 4, as at startup).
      void useCouponStore.getState().reapplyActive();
      void navigate(safeNext(params.get('next')), { replace: true });
    } catch (caught) {
      const status = (caught as { status?: number }).status;
      setError(status === 401 ? 'Nesprávny e-mail alebo heslo.' : status === 429 ? 'Príliš veľa pokusov. Skúste to o chvíľu.' : 'Prihlásenie sa nepodarilo. Skúste to znova.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <section>
      <h1>Prihlásenie</h1>
      <form className="acc-form" onSubmit={(event) => void submit(event)} noValidate>
        <label className="acc-field">
          E-mail
          <input type="email" autoComplete="email" value={email} onChange={(event) => setEmail(event.target.value)} required />
        </label>
        <label className="acc-field">
          Heslo
          <input type="password" autoComplete="current-password" value={password} onChange={(event) => setPassword(event.target.value)} required />
        </label>
        {error && <p className="acc-error" role="alert">{error}</p>}
        <button type="submit" className="button button--primary" disabled={busy}>
          {busy ? 'Prihlasujem…' : 'Prihlásiť sa'}
        </button>
      </form>
      <p className="acc-links">
        <Link to="/account/password-reset">Zabudli ste heslo?</Link>
        <Link to={`/account/register${params.get('next') ? `?next=${encodeURIComponent(params.get('next')!)}` : ''}`}>Vytvoriť nový účet</Link>
      </p>
    </section>
  );
}
