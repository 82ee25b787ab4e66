import { useState } from 'react';
import { Link, useSearchParams, call } from '@shop/shared-kernel';
import { checkPassword } from '@shop/shared-kernel/rules';
import { usePageMeta, useSubmit } from '@shop/shared-kernel/react';
import { errorMessage, Field } from '../components/field.tsx';
import { useAccountStyles } from '../use-account-styles.ts';
import { shopPaths } from '@shop/shared-kernel/contract';

/** Without ?token: ask for the e-mailed link. With ?token (from the e-mail): set a new password. */
export default function PasswordResetPage() {
  useAccountStyles();
  usePageMeta({ title: 'Zabudnuté heslo', description: 'Nastavte si nové heslo k zákazníckemu účtu.' });
  const [params] = useSearchParams();
  const token = params.get('token');
  return (
    <section>
      <h1>{token ? 'Nové heslo' : 'Zabudnuté heslo'}</h1>
      {token ? <NewPassword token={token} /> : <AskForLink />}
    </section>
  );
}

function AskForLink() {
  const [email, setEmail] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const { onSubmit, busy, error } = useSubmit(
    async () => {
      if (!email.trim()) return 'Zadajte e-mail.';
      setDone((await call('POST /api/account/password-reset', { body: { email: email.trim() } })).data.message);
    },
    (caught) => errorMessage(caught, 'Požiadavku sa nepodarilo odoslať. Skúste to znova.'),
  );
  if (done) return <p role="status">{done}</p>;
  return (
    <form className="acc-form" onSubmit={onSubmit} noValidate>
      <p>Pošleme vám odkaz, na ktorom si nastavíte nové heslo.</p>
      <Field id="reset-email" label="E-mail" type="email" autoComplete="email" value={email} onChange={setEmail} />
      {error && (
        <p className="acc-error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" className="button button--primary" disabled={busy}>
        Poslať odkaz
      </button>
    </form>
  );
}

function NewPassword({ token }: { token: string }) {
  const [password, setPassword] = useState('');
  const [password2, setPassword2] = useState('');
  const [done, setDone] = useState(false);
  const { onSubmit, busy, error } = useSubmit(
    async () => {
      const weak = checkPassword(password);
      if (weak || password !== password2) return weak ?? 'Heslá sa nezhodujú.';
      await call('POST /api/account/password-reset/confirm', { body: { token, password } });
      setDone(true);
    },
    (caught) => errorMessage(caught, 'Heslo sa nepodarilo zmeniť. Skúste to znova.'),
  );
  if (done) {
    return (
      <>
        <p role="status">Heslo je zmenené. Teraz sa môžete prihlásiť.</p>
        <p>
          <Link className="button button--primary" to={shopPaths.signIn()}>
            Prihlásiť sa
          </Link>
        </p>
      </>
    );
  }
  return (
    <form className="acc-form" onSubmit={onSubmit} noValidate>
      <Field
        id="reset-password"
        label="Nové heslo"
        type="password"
        autoComplete="new-password"
        value={password}
        onChange={setPassword}
        hint="Aspoň 8 znakov, písmeno aj číslica."
      />
      <Field
        id="reset-password2"
        label="Nové heslo znova"
        type="password"
        autoComplete="new-password"
        value={password2}
        onChange={setPassword2}
      />
      {error && (
        <p className="acc-error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" className="button button--primary" disabled={busy}>
        Nastaviť heslo
      </button>
    </form>
  );
}
