import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate, call, useAuthStore, useCheckoutStore, bus, useBasketStore } from '@shop/shared-kernel';
import { isAuthenticated, mergeCheckoutPrefill, validateContact, type ContactErrors, basketCommerce } from '@shop/shared-kernel/rules';
import { usePageMeta } from '@shop/shared-kernel/react';
import { shopPaths, type CheckoutContact, type PostalAddress } from '@shop/shared-kernel/contract';
import { CheckoutSteps } from '../components/checkout-steps.tsx';
import { Field } from '../components/field.tsx';
import { EMPTY_COMPANY, EMPTY_DELIVERY, effectiveContact } from '../components/contact.ts';
import { useCheckoutStyles } from '../use-checkout-styles.ts';

export default function ContactPage() {
  useCheckoutStyles();
  usePageMeta({ title: 'Kontaktné údaje', description: 'Kontaktné a fakturačné údaje k objednávke.' });
  const navigate = useNavigate();
  const { contact, companyPurchase, differentDelivery, setContact, update } = useCheckoutStore();
  const signedIn = useAuthStore((state) => isAuthenticated(state.auth));
  const [errors, setErrors] = useState<ContactErrors>({});
  const [submitted, setSubmitted] = useState(false);
  useEffect(() => {
    bus.emit('checkout:begun', basketCommerce(useBasketStore.getState().lines));
  }, []);

  // Account prefill: a signed-in shopper's profile and default addresses fill the fields
  // still empty, through the kernel's call and merge rule; what the shopper typed stays.
  useEffect(() => {
    if (!signedIn) return;
    let cancelled = false;
    call('GET /api/account/checkout-prefill').then(
      ({ data }) => {
        if (cancelled) return;
        const state = useCheckoutStore.getState();
        const merged = mergeCheckoutPrefill(state.contact, data);
        state.setContact(merged);
        if (merged.delivery && !state.contact.delivery) state.update({ differentDelivery: true });
        if (merged.company && !state.contact.company) state.update({ companyPurchase: true });
      },
      () => undefined,
    );
    return () => {
      cancelled = true;
    };
  }, [signedIn]);

  const effective = effectiveContact(contact, companyPurchase, differentDelivery);
  const change = (next: CheckoutContact) => {
    setContact(next);
    if (submitted) setErrors(validateContact(effectiveContact(next, companyPurchase, differentDelivery)));
  };
  const setAddress = (key: 'billing', patch: Partial<PostalAddress>) => change({ ...contact, [key]: { ...contact[key], ...patch } });
  const company = contact.company ?? EMPTY_COMPANY;
  const delivery = contact.delivery ?? EMPTY_DELIVERY;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    const found = validateContact(effective);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      const first = Object.keys(found)[0]!;
      document.getElementById(`contact-${first.replace('.', '-')}`)?.focus();
      return;
    }
    navigate(shopPaths.checkoutOrder());
  };

  const f = (path: string) => ({ id: `contact-${path.replace('.', '-')}`, error: errors[path] });
  return (
    <section>
      <CheckoutSteps current={1} />
      <h1>Kontaktné údaje</h1>
      <form className="chk-form" onSubmit={submit} noValidate>
        <fieldset>
          <legend>Kontakt</legend>
          <Field
            {...f('email')}
            label="E-mail"
            type="email"
            autoComplete="email"
            value={contact.email}
            onChange={(email) => change({ ...contact, email })}
          />
          <Field
            {...f('phone')}
            label="Telefón"
            type="tel"
            autoComplete="tel"
            value={contact.phone}
            hint="napr. +421 905 123 456"
            onChange={(phone) => change({ ...contact, phone })}
          />
          <Field
            {...f('name')}
            label="Meno a priezvisko"
            autoComplete="name"
            value={contact.name}
            onChange={(name) => change({ ...contact, name })}
          />
        </fieldset>
        <fieldset>
          <legend>Fakturačná adresa</legend>
          <Field
            {...f('billing.street')}
            label="Ulica a číslo"
            autoComplete="street-address"
            value={contact.billing.street}
            onChange={(street) => setAddress('billing', { street })}
          />
          <Field
            {...f('billing.city')}
            label="Mesto"
            autoComplete="address-level2"
            value={contact.billing.city}
            onChange={(city) => setAddress('billing', { city })}
          />
          <Field
            {...f('billing.zip')}
            label="PSČ"
            autoComplete="postal-code"
            inputMode="numeric"
            value={contact.billing.zip}
            onChange={(zip) => setAddress('billing', { zip })}
          />
        </fieldset>
        <label className="chk-check">
          <input type="checkbox" checked={companyPurchase} onChange={(event) => update({ companyPurchase: event.target.checked })} />
          Nakupujem na firmu
        </label>
        {companyPurchase && (
          <fieldset>
            <legend>Údaje firmy</legend>
            <Field
              {...f('company.name')}
              label="Obchodné meno"
              autoComplete="organization"
              value={company.name}
              onChange={(name) => change({ ...contact, company: { ...company, name } })}
            />
            <Field
              {...f('company.ico')}
              label="IČO"
              inputMode="numeric"
              value={company.ico}
              onChange={(ico) => change({ ...contact, company: { ...company, ico } })}
            />
            <Field
              {...f('company.dic')}
              label="DIČ"
              inputMode="numeric"
              value={company.dic}
              onChange={(dic) => change({ ...contact, company: { ...company, dic } })}
            />
            <Field
              {...f('company.icDph')}
              label="IČ DPH (ak ste platiteľ DPH)"
              value={company.icDph}
              onChange={(icDph) => change({ ...contact, company: { ...company, icDph } })}
            />
          </fieldset>
        )}
        <label className="chk-check">
          <input type="checkbox" checked={differentDelivery} onChange={(event) => update({ differentDelivery: event.target.checked })} />
          Doručiť na inú adresu
        </label>
        {differentDelivery && (
          <fieldset>
            <legend>Dodacia adresa</legend>
            <Field
              {...f('delivery.name')}
              label="Meno a priezvisko príjemcu"
              value={delivery.name}
              onChange={(name) => change({ ...contact, delivery: { ...delivery, name } })}
            />
            <Field
              {...f('delivery.street')}
              label="Ulica a číslo"
              value={delivery.street}
              onChange={(street) => change({ ...contact, delivery: { ...delivery, street } })}
            />
            <Field
              {...f('delivery.city')}
              label="Mesto"
              value={delivery.city}
              onChange={(city) => change({ ...contact, delivery: { ...delivery, city } })}
            />
            <Field
              {...f('delivery.zip')}
              label="PSČ"
              inputMode="numeric"
              value={delivery.zip}
              onChange={(zip) => change({ ...contact, delivery: { ...delivery, zip } })}
            />
          </fieldset>
        )}
        <div className="chk-actions">
          <Link to={shopPaths.cart()}>Späť do košíka</Link>
          <button type="submit" className="button button--primary">
            Pokračovať k doprave a platbe
          </button>
        </div>
      </form>
    </section>
  );
}
