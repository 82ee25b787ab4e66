import { describe, expect, it } from 'vitest';
import { CONTACT_FORM_MESSAGES, validateContactMessage } from './contact-message-rules.ts';

const valid = { name: 'Ján Novák', email: 'jan.novak@example.sk', phone: '', message: 'Potrebujem cenovú ponuku na tehly.' };

describe('validateContactMessage', () => {
  it('accepts a complete message, with or without a Slovak phone number', () => {
    expect(validateContactMessage(valid)).toEqual({});
    expect(validateContactMessage({ ...valid, phone: '0905 123 456' })).toEqual({});
    expect(validateContactMessage({ ...valid, phone: '+421 905 123 456' })).toEqual({});
  });

  it('gives a Slovak message per wrong field', () => {
    expect(validateContactMessage({ name: ' ', email: 'jan@', phone: '12', message: 'krátka' })).toEqual({
      name: CONTACT_FORM_MESSAGES.name,
      email: CONTACT_FORM_MESSAGES.email,
      phone: CONTACT_FORM_MESSAGES.phone,
      message: CONTACT_FORM_MESSAGES.message,
    });
    expect(validateContactMessage({ ...valid, message: 'x'.repeat(5001) })).toEqual({ message: CONTACT_FORM_MESSAGES.message });
  });
});
