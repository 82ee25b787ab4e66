import { useState } from 'react';
import { Link, useSearchParams, call } from '@shop/shared-kernel';
import { checkPassword, validateProfile } from '@shop/shared-kernel/rules';
import { usePageMeta, useSubmit } from '@shop/shared-kernel/react';
import { errorMessage, Field } from '../components/field.tsx';
import { useAccountStyles } from '../use-account-styles.ts';
import { shopPaths } from '@shop/shared-kernel/contract';

/**
 * Sign-up. The answer is the same whether the e-mail already has an account or not (the owner of
 * the mailbox learns which by e-mail), so the page then invites the shopper to sign in.
 */
export default function RegisterPage() {
  useAccountStyles();
  usePageMeta({ title: 'Registrácia', description: 'Vytvorte si zákaznícky účet.' });
  const [params] = useSearchParams();
  const [form, setForm] = useState({ name: '', email: '', password: '', password2: '', newsletter: false });
  const [errors, setErrors] = useState<Partial<Record<string, string>>>({});
  const [done, setDone] = useState<string | null>(null);

  const { onSubmit, busy, error } = useSubmit(
    async () => {
      const found: Partial<Record<string, string>> = {};
      const profile = validateProfile({ name: form.name, email: form.email, phone: '', company: null, newsletter: false });
      if (profile.name) found.name = profile.name;
      if (profile.email) found.email = profile.email;
      const weak = checkPassword(form.password);
      if (weak) found.password = weak;
      else if (form.password !== form.password2) found.password2 = 'Heslá sa nezhodujú.';
      setErrors(found);
      if (Object.keys(found).length > 0) {
        document.getElementById(`reg-${Object.keys(found)[0]}`)?.focus();
        return;
      }
      const { data } = await call('POST /api/account/register', {
        body: { name: form.name.trim(), email: form.email.trim(), password: form.password, newsletter: form.newsletter },
      });
      setDone(data.message);
    },
    (caught) => errorMessage(caught, 'Registrácia sa nepodarila. Skúste to znova.'),
  );

  const next = params.get('next');
  const loginLink = shopPaths.signIn(next || null, form.email.trim());
  if (done) {
    return (
      <section>
        <h1>Registrácia</h1>
        <p role="status">{done}</p>
        <p>
          <Link className="button button--primary" to={loginLink}>
            Prihlásiť sa
          </Link>
        </p>
      </section>
    );
  }
  const set = (key: keyof typeof form) => (value: string) => setForm({ ...form, [key]: value });
  return (
    <section>
      <h1>Registrácia</h1>
      <form className="acc-form" onSubmit={onSubmit} noValidate>
        <Field id="reg-name" label="Meno a priezvisko" autoComplete="name" value={form.name} error={errors.name} onChange={set('name')} />
        <Field
          id="reg-email"
          label="E-mail"
          type="email"
          autoComplete="email"
          value={form.email}
          error={errors.email}
          onChange={set('email')}
        />
        <Field
          id="reg-password"
          label="Heslo"
          type="password"
          autoComplete="new-password"
          value={form.password}
          error={errors.password}
          hint="Aspoň 8 znakov, písmeno aj číslica."
          onChange={set('password')}
        />
        <Field
          id="reg-password2"
          label="Heslo znova"
          type="password"
          autoComplete="new-password"
          value={form.password2}
          error={errors.password2}
          onChange={set('password2')}
        />
        <label className="acc-check">
          <input type="checkbox" checked={form.newsletter} onChange={(event) => setForm({ ...form, newsletter: event.target.checked })} />
          Chcem dostávať novinky a akciové ponuky e-mailom
        </label>
        {error && (
          <p className="acc-error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="button button--primary" disabled={busy}>
          {busy ? 'Registrujem…' : 'Zaregistrovať sa'}
        </button>
      </form>
      <p className="acc-links">
        <Link to={shopPaths.signIn()}>Už máte účet? Prihláste sa</Link>
      </p>
    </section>
  );
}
