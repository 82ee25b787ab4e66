import { useState, type FormEvent } from 'react';
import { call } from '@shop/shared-kernel';
import {
  CONTACT_FORM_MESSAGES,
  validateContactMessage,
  type ContactMessageErrors,
  type ContactMessageInput,
} from '@shop/shared-kernel/rules';

const empty: ContactMessageInput = { name: '', email: '', phone: '', message: '' };

/** The contact form: a Slovak message per field, a hidden spam trap, the server's answer shown. */
export function ContactForm() {
  const [values, setValues] = useState(empty);
  const [trap, setTrap] = useState('');
  const [errors, setErrors] = useState<ContactMessageErrors>({});
  const [state, setState] = useState<'idle' | 'sending' | 'sent' | 'failed' | 'limited'>('idle');

  const field = (name: keyof ContactMessageInput) => ({
    id: `contact-${name}`,
    value: values[name],
    onChange: (event: { target: { value: string } }) => setValues({ ...values, [name]: event.target.value }),
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? `contact-${name}-error` : undefined,
  });
  const error = (name: keyof ContactMessageInput) =>
    errors[name] ? (
      <p id={`contact-${name}-error`} className="cnt-error">
        {errors[name]}
      </p>
    ) : null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validateContactMessage(values);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setState('sending');
    try {
      await call('POST /api/contact', { body: { ...values, website: trap } });
      setValues(empty);
      setState('sent');
    } catch (caught) {
      setState((caught as { status?: number }).status === 429 ? 'limited' : 'failed');
    }
  };

  if (state === 'sent')
    return (
      <p className="cnt-notice" role="status">
        {CONTACT_FORM_MESSAGES.sent}
      </p>
    );
  return (
    <form className="cnt-form" onSubmit={(event) => void submit(event)} noValidate aria-labelledby="contact-form-title">
      <h2 id="contact-form-title">Napíšte nám</h2>
      <label htmlFor="contact-name">Meno a priezvisko</label>
      <input {...field('name')} autoComplete="name" required />
      {error('name')}
      <label htmlFor="contact-email">E-mail</label>
      <input {...field('email')} type="email" autoComplete="email" required />
      {error('email')}
      <label htmlFor="contact-phone">Telefón (nepovinné)</label>
      <input {...field('phone')} type="tel" autoComplete="tel" />
      {error('phone')}
      <label htmlFor="contact-message">Správa</label>
      <textarea {...field('message')} rows={6} required />
      {error('message')}
      {/* Spam trap: hidden from people and screen readers; bots fill it. */}
      <div className="cnt-trap" aria-hidden="true">
        <label htmlFor="contact-website">Web</label>
        <input id="contact-website" tabIndex={-1} autoComplete="off" value={trap} onChange={(event) => setTrap(event.target.value)} />
      </div>
      {state === 'failed' && (
        <p className="cnt-error" role="alert">
          {CONTACT_FORM_MESSAGES.failed}
        </p>
      )}
      {state === 'limited' && (
        <p className="cnt-error" role="alert">
          {CONTACT_FORM_MESSAGES.tooMany}
        </p>
      )}
      <button type="submit" className="button button--primary" disabled={state === 'sending'}>
        {state === 'sending' ? 'Odosielam…' : 'Odoslať správu'}
      </button>
    </form>
  );
}
