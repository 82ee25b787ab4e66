import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams, call, resource, useAuthStore } from '@shop/shared-kernel';
import { checkPassword, validateProfile } from '@shop/shared-kernel/rules';
import { dataOf, usePageMeta, useResource, useSubmit } from '@shop/shared-kernel/react';
import type { CompanyData, Profile } from '@shop/shared-kernel/contract';
import { errorMessage, Field } from '../components/field.tsx';
import { RequireSignIn } from '../components/require-sign-in.tsx';
import { StatusMessage } from '../components/status-message.tsx';
import { useAccountStyles } from '../use-account-styles.ts';

const EMPTY_COMPANY: CompanyData = { name: '', ico: '', dic: '', icDph: '' };

const pendingEmailText = (email: string) =>
  `Na adresu ${email} sme poslali odkaz na potvrdenie nového e-mailu. Kým ho neotvoríte, prihlasujete sa doterajším e-mailom.`;

/** Opens the link e-mailed to a new address (?emailToken=…): the e-mail changes, the token leaves the URL. */
function useEmailConfirmation(onConfirmed: (p: Profile) => void) {
  const [params, setParams] = useSearchParams();
  const token = params.get('emailToken');
  const [status, setStatus] = useState<{ ok?: string; error?: string }>({});
  const sent = useRef<string | null>(null);
  useEffect(() => {
    if (!token || sent.current === token) return;
    sent.current = token;
    call('POST /api/account/email/confirm', { body: { token } })
      .then(
        ({ data }) => {
          onConfirmed(data);
          setStatus({ ok: `Nový e-mail ${data.email} je potvrdený. Odteraz sa ním prihlasujete.` });
        },
        (caught: unknown) => setStatus({ error: errorMessage(caught, 'E-mail sa nepodarilo potvrdiť.') }),
      )
      .finally(() => setParams({}, { replace: true }));
  }, [token, onConfirmed, setParams]);
  return status;
}

function ProfileForm({ profile, onSaved }: { profile: Profile; onSaved: (p: Profile) => void }) {
  const [form, setForm] = useState({
    ...profile,
    company: profile.company ?? EMPTY_COMPANY,
    isCompany: profile.company !== null,
    currentPassword: '',
  });
  const [errors, setErrors] = useState<Partial<Record<string, string>>>({});
  const [status, setStatus] = useState<{ ok?: string; error?: string }>({});
  const emailChanged = form.email.trim().toLowerCase() !== profile.email;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const input = {
      name: form.name,
      email: form.email,
      phone: form.phone,
      company: form.isCompany ? form.company : null,
      newsletter: form.newsletter,
      ...(emailChanged ? { currentPassword: form.currentPassword } : {}),
    };
    const found = validateProfile(input);
    setErrors(found);
    setStatus({});
    if (Object.keys(found).length > 0) return;
    try {
      const { data } = await call('PUT /api/account/profile', { body: input });
      onSaved(data);
      setForm((f) => ({ ...f, email: data.email, currentPassword: '' }));
      setStatus({
        ok: emailChanged ? `Údaje sú uložené. ${pendingEmailText(data.pendingEmail ?? input.email.trim())}` : 'Údaje sú uložené.',
      });
    } catch (caught) {
      setStatus({ error: errorMessage(caught, 'Údaje sa nepodarilo uložiť.') });
    }
  };
  const company = (key: keyof CompanyData) => (value: string) => setForm({ ...form, company: { ...form.company, [key]: value } });
  return (
    <form className="acc-form" onSubmit={(event) => void submit(event)} noValidate aria-labelledby="acc-profile-title">
      <h2 id="acc-profile-title">Osobné údaje</h2>
      <Field
        id="profile-name"
        label="Meno a priezvisko"
        autoComplete="name"
        value={form.name}
        error={errors.name}
        onChange={(name) => setForm({ ...form, name })}
      />
      <Field
        id="profile-email"
        label="E-mail"
        type="email"
        autoComplete="email"
        value={form.email}
        error={errors.email}
        onChange={(email) => setForm({ ...form, email })}
      />
      {emailChanged && (
        <Field
          id="profile-current-password"
          label="Súčasné heslo (na zmenu e-mailu)"
          type="password"
          autoComplete="current-password"
          value={form.currentPassword}
          onChange={(currentPassword) => setForm({ ...form, currentPassword })}
        />
      )}
      <Field
        id="profile-phone"
        label="Telefón"
        type="tel"
        autoComplete="tel"
        value={form.phone}
        error={errors.phone}
        hint="napr. +421 905 123 456"
        onChange={(phone) => setForm({ ...form, phone })}
      />
      <label className="acc-check">
        <input type="checkbox" checked={form.isCompany} onChange={(event) => setForm({ ...form, isCompany: event.target.checked })} />
        Nakupujem na firmu
      </label>
      {form.isCompany && (
        <fieldset className="acc-fieldset">
          <legend>Údaje firmy</legend>
          <Field
            id="profile-company-name"
            label="Obchodné meno"
            autoComplete="organization"
            value={form.company.name}
            error={errors['company.name']}
            onChange={company('name')}
          />
          <Field
            id="profile-company-ico"
            label="IČO"
            inputMode="numeric"
            value={form.company.ico}
            error={errors['company.ico']}
            onChange={company('ico')}
          />
          <Field
            id="profile-company-dic"
            label="DIČ"
            inputMode="numeric"
            value={form.company.dic}
            error={errors['company.dic']}
            onChange={company('dic')}
          />
          <Field
            id="profile-company-icdph"
            label="IČ DPH (ak ste platiteľ DPH)"
            value={form.company.icDph}
            error={errors['company.icDph']}
            onChange={company('icDph')}
          />
        </fieldset>
      )}
      <label className="acc-check">
        <input type="checkbox" checked={form.newsletter} onChange={(event) => setForm({ ...form, newsletter: event.target.checked })} />
        Chcem dostávať novinky a akciové ponuky e-mailom
      </label>
      <StatusMessage ok={status.ok ?? null} error={status.error ?? null} />
      <button type="submit" className="button button--primary">
        Uložiť údaje
      </button>
    </form>
  );
}

function PasswordForm() {
  const renew = useAuthStore((state) => state.renew);
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [status, setStatus] = useState<{ ok?: string; error?: string }>({});
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const weak = checkPassword(next);
    if (!current || weak) {
      setStatus({ error: current ? weak! : 'Zadajte súčasné heslo.' });
      return;
    }
    try {
      const { data } = await call('POST /api/account/password', { body: { currentPassword: current, newPassword: next } });
      renew(data.expiresAt); // the other sessions ended; this one goes on with the fresh cookie the API set
      setCurrent('');
      setNext('');
      setStatus({ ok: 'Heslo je zmenené. Na ostatných zariadeniach sa prihláste znova.' });
    } catch (caught) {
      setStatus({ error: errorMessage(caught, 'Heslo sa nepodarilo zmeniť.') });
    }
  };
  return (
    <form className="acc-form" onSubmit={(event) => void submit(event)} noValidate aria-labelledby="acc-password-title">
      <h2 id="acc-password-title">Zmena hesla</h2>
      <Field
        id="password-current"
        label="Súčasné heslo"
        type="password"
        autoComplete="current-password"
        value={current}
        onChange={setCurrent}
      />
      <Field
        id="password-new"
        label="Nové heslo"
        type="password"
        autoComplete="new-password"
        value={next}
        onChange={setNext}
        hint="Aspoň 8 znakov, písmeno aj číslica."
      />
      <StatusMessage ok={status.ok ?? null} error={status.error ?? null} />
      <button type="submit" className="button">
        Zmeniť heslo
      </button>
    </form>
  );
}

function DeleteAccount() {
  const signOut = useAuthStore((state) => state.signOutLocally);
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const remove = useSubmit(
    async () => {
      await call('POST /api/account/delete', { body: { password } });
      signOut();
      void navigate('/', { replace: true });
    },
    (caught) => errorMessage(caught, 'Účet sa nepodarilo zrušiť.'),
  );
  return (
    <section className="acc-form acc-danger" aria-labelledby="acc-delete-title">
      <h2 id="acc-delete-title">Zrušenie účtu</h2>
      <p>Vymažeme vaše meno, e-mail, telefón, firemné údaje a adresy. Objednávky a faktúry si musíme podľa zákona ponechať.</p>
      {!open ? (
        <button type="button" className="button" onClick={() => setOpen(true)}>
          Zrušiť účet…
        </button>
      ) : (
        <form onSubmit={remove.onSubmit} noValidate className="acc-stack">
          <Field
            id="delete-password"
            label="Na potvrdenie zadajte heslo"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={setPassword}
          />
          {remove.error && (
            <p className="acc-error" role="alert">
              {remove.error}
            </p>
          )}
          <div className="acc-actions">
            <button type="submit" className="button acc-button--danger">
              Natrvalo zrušiť účet
            </button>
            <button type="button" className="button" onClick={() => setOpen(false)}>
              Ponechať účet
            </button>
          </div>
        </form>
      )}
    </section>
  );
}

function ProfileContent() {
  const logout = useAuthStore((state) => state.logout);
  const me = useResource(resource('GET /api/account/profile'), { select: dataOf });
  const [saved, setSaved] = useState<Profile | null>(null);
  const confirmation = useEmailConfirmation(setSaved);
  if (me.status === 'error') return <p role="alert">Profil sa nepodarilo načítať.</p>;
  if (!me.data) return <div aria-busy="true" className="page-skeleton" />;
  const profile = saved ?? me.data;
  return (
    <>
      <dl className="acc-profile">
        <dt>Meno</dt>
        <dd>{profile.name}</dd>
        <dt>E-mail</dt>
        <dd>
          {profile.email}
          {profile.pendingEmail && <span className="acc-pending"> (čaká na potvrdenie: {profile.pendingEmail})</span>}
        </dd>
      </dl>
      <StatusMessage ok={confirmation.ok ?? null} error={confirmation.error ?? null} />
      <p>
        <button type="button" className="button" onClick={() => void logout()}>
          Odhlásiť sa
        </button>
      </p>
      <div className="acc-columns">
        <ProfileForm key={profile.email} profile={profile} onSaved={setSaved} />
        <PasswordForm />
        <DeleteAccount />
      </div>
    </>
  );
}

export default function ProfilePage() {
  useAccountStyles();
  usePageMeta({ title: 'Môj profil' });
  return (
    <RequireSignIn>
      <section>
        <h1>Môj profil</h1>
        <ProfileContent />
      </section>
    </RequireSignIn>
  );
}
