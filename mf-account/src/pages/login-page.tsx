import { useState } from 'react';
import { Link, useNavigate, useSearchParams, call, useAuthStore, useCouponStore } from '@shop/shared-kernel';
import { usePageMeta, useSubmit } from '@shop/shared-kernel/react';
import { useAccountStyles } from '../use-account-styles.ts';
import { shopPaths } from '@shop/shared-kernel/contract';

/** Only same-site paths are followed after sign-in. */
function safeNext(next: string | null): string {
  return next && next.startsWith('/') && !next.startsWith('//') ? next : shopPaths.profile();
}

export default function LoginPage() {
  useAccountStyles();
  usePageMeta({ title: 'Prihlásenie', description: 'Prihláste sa do svojho zákazníckeho účtu.' });
  const login = useAuthStore((state) => state.login);
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [email, setEmail] = useState(() => params.get('email') ?? '');
  const [password, setPassword] = useState('');

  const { onSubmit, busy, error } = useSubmit(
    async () => {
      if (!email.trim() || !password) return 'Zadajte e-mail aj heslo.';
      const { data } = await call('POST /api/account/login', { body: { email: email.trim(), password } });
      // The API has set the HttpOnly session cookie; the page keeps only who is signed in, until when.
      login({ user: data.user, expiresAt: data.expiresAt });
      // The shopper's active coupon comes back into the basket (requirements R4.4, as at startup).
      void useCouponStore.getState().reapplyActive();
      void navigate(safeNext(params.get('next')), { replace: true });
    },
    (caught) => {
      const status = (caught as { status?: number }).status;
      return status === 401
        ? 'Nesprávny e-mail alebo heslo.'
        : status === 429
          ? 'Príliš veľa pokusov. Skúste to o chvíľu.'
          : 'Prihlásenie sa nepodarilo. Skúste to znova.';
    },
  );

  return (
    <section>
      <h1>Prihlásenie</h1>
      <form className="acc-form" onSubmit={onSubmit} noValidate>
        <label className="acc-field">
          E-mail
          <input type="email" autoComplete="email" value={email} onChange={(event) => setEmail(event.target.value)} required />
        </label>
        <label className="acc-field">
          Heslo
          <input
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            required
          />
        </label>
        {error && (
          <p className="acc-error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="button button--primary" disabled={busy}>
          {busy ? 'Prihlasujem…' : 'Prihlásiť sa'}
        </button>
      </form>
      <p className="acc-links">
        <Link to={shopPaths.passwordReset()}>Zabudli ste heslo?</Link>
        <Link to={shopPaths.register(params.get('next'))}>Vytvoriť nový účet</Link>
      </p>
    </section>
  );
}
