import { useState } from 'react';
import { call, resource } from '@shop/shared-kernel';
import { validateAddress } from '@shop/shared-kernel/rules';
import { dataOf, usePageMeta, useResource, useSubmit } from '@shop/shared-kernel/react';
import type { Address, AddressInput, AddressKind } from '@shop/shared-kernel/contract';
import { errorMessage, Field } from '../components/field.tsx';
import { RequireSignIn } from '../components/require-sign-in.tsx';
import { StatusMessage } from '../components/status-message.tsx';
import { useAccountStyles } from '../use-account-styles.ts';

const KIND_LABEL: Record<AddressKind, string> = { billing: 'Fakturačné adresy', delivery: 'Dodacie adresy' };
const empty = (kind: AddressKind): AddressInput => ({ kind, name: '', street: '', city: '', zip: '', isDefault: false });

function AddressForm({
  initial,
  onDone,
  onCancel,
}: {
  initial: Address | AddressInput;
  onDone: (message: string) => void;
  onCancel: () => void;
}) {
  const [form, setForm] = useState<AddressInput>({
    kind: initial.kind,
    name: initial.name,
    street: initial.street,
    city: initial.city,
    zip: initial.zip,
    isDefault: initial.isDefault,
  });
  const [errors, setErrors] = useState<Partial<Record<string, string>>>({});
  const id = 'id' in initial ? initial.id : null;
  const { onSubmit, error } = useSubmit(
    async () => {
      const found = validateAddress(form);
      setErrors(found);
      if (Object.keys(found).length > 0) return;
      if (id === null) await call('POST /api/account/addresses', { body: form });
      else await call('PUT /api/account/addresses/:id', { params: { id }, body: form });
      onDone(id === null ? 'Adresa je pridaná.' : 'Adresa je uložená.');
    },
    (caught) => errorMessage(caught, 'Adresu sa nepodarilo uložiť.'),
  );
  const f = (key: 'name' | 'street' | 'city' | 'zip') => ({
    id: `address-${key}`,
    value: form[key],
    error: errors[key],
    onChange: (value: string) => setForm({ ...form, [key]: value }),
  });
  return (
    <form className="acc-form" onSubmit={onSubmit} noValidate aria-label={id === null ? 'Nová adresa' : 'Upraviť adresu'}>
      <fieldset className="acc-fieldset">
        <legend>Druh adresy</legend>
        {(['billing', 'delivery'] as const).map((kind) => (
          <label key={kind} className="acc-check">
            <input type="radio" name="address-kind" checked={form.kind === kind} onChange={() => setForm({ ...form, kind })} />
            {kind === 'billing' ? 'Fakturačná' : 'Dodacia'}
          </label>
        ))}
      </fieldset>
      <Field {...f('name')} label={form.kind === 'billing' ? 'Meno a priezvisko' : 'Meno a priezvisko príjemcu'} autoComplete="name" />
      <Field {...f('street')} label="Ulica a číslo" autoComplete="street-address" />
      <Field {...f('city')} label="Mesto" autoComplete="address-level2" />
      <Field {...f('zip')} label="PSČ" autoComplete="postal-code" inputMode="numeric" />
      <label className="acc-check">
        <input type="checkbox" checked={form.isDefault} onChange={(event) => setForm({ ...form, isDefault: event.target.checked })} />
        Predvolená adresa (predvyplní sa v objednávke)
      </label>
      {error && (
        <p className="acc-error" role="alert">
          {error}
        </p>
      )}
      <div className="acc-actions">
        <button type="submit" className="button button--primary">
          Uložiť adresu
        </button>
        <button type="button" className="button" onClick={onCancel}>
          Zrušiť
        </button>
      </div>
    </form>
  );
}

function Addresses() {
  const list = useResource(resource('GET /api/account/addresses'), { select: dataOf });
  const [editing, setEditing] = useState<Address | AddressInput | null>(null);
  const [status, setStatus] = useState<{ ok?: string; error?: string }>({});
  const done = (ok: string) => {
    setEditing(null);
    setStatus({ ok });
    list.reload();
  };
  const act = async (action: () => Promise<unknown>, ok: string) => {
    try {
      await action();
      done(ok);
    } catch (caught) {
      setStatus({ error: errorMessage(caught, 'Zmena sa nepodarila.') });
    }
  };
  if (list.status === 'error') return <p role="alert">Adresy sa nepodarilo načítať.</p>;
  if (!list.data) return <div aria-busy="true" className="page-skeleton" />;
  if (editing)
    return <AddressForm key={'id' in editing ? editing.id : 'new'} initial={editing} onDone={done} onCancel={() => setEditing(null)} />;
  return (
    <>
      <StatusMessage ok={status.ok ?? null} error={status.error ?? null} />
      {(['billing', 'delivery'] as const).map((kind) => {
        const items = list.data.filter((a) => a.kind === kind);
        return (
          <section key={kind} aria-labelledby={`acc-${kind}`}>
            <h2 id={`acc-${kind}`}>{KIND_LABEL[kind]}</h2>
            {items.length === 0 ? (
              <p>Zatiaľ žiadna.</p>
            ) : (
              <ul className="acc-cards">
                {items.map((a) => (
                  <li key={a.id} className="acc-card" data-testid="address">
                    <p>
                      <strong>{a.name}</strong>
                      {a.isDefault && <span className="acc-badge">Predvolená</span>}
                      <br />
                      {a.street}
                      <br />
                      {a.zip.replace(/^(\d{3})(\d{2})$/, '$1 $2')} {a.city}
                    </p>
                    <div className="acc-actions">
                      <button type="button" className="button" onClick={() => setEditing(a)}>
                        Upraviť
                      </button>
                      {!a.isDefault && (
                        <button
                          type="button"
                          className="button"
                          onClick={() =>
                            void act(
                              () => call('PUT /api/account/addresses/:id', { params: { id: a.id }, body: { ...a, isDefault: true } }),
                              'Predvolená adresa je zmenená.',
                            )
                          }
                        >
                          Nastaviť ako predvolenú
                        </button>
                      )}
                      <button
                        type="button"
                        className="button"
                        onClick={() => {
                          if (window.confirm('Naozaj vymazať túto adresu?'))
                            void act(() => call('DELETE /api/account/addresses/:id', { params: { id: a.id } }), 'Adresa je vymazaná.');
                        }}
                      >
                        Vymazať
                      </button>
                    </div>
                  </li>
                ))}
              </ul>
            )}
            <p>
              <button
                type="button"
                className="button"
                onClick={() => {
                  setStatus({});
                  setEditing(empty(kind));
                }}
              >
                {kind === 'billing' ? 'Pridať fakturačnú adresu' : 'Pridať dodaciu adresu'}
              </button>
            </p>
          </section>
        );
      })}
    </>
  );
}

export default function AddressPage() {
  useAccountStyles();
  usePageMeta({ title: 'Moje adresy' });
  return (
    <RequireSignIn>
      <section>
        <h1>Moje adresy</h1>
        <p>Predvolenú fakturačnú a dodaciu adresu vám predvyplníme pri objednávke.</p>
        <Addresses />
      </section>
    </RequireSignIn>
  );
}
