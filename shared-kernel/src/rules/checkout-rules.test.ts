import { describe, expect, it } from 'vitest';
import { emptyContact, normalizeSlovakPhone, normalizeZip, validateContact } from './checkout-rules.ts';
import type { CheckoutContact } from '../contract/index.ts';

const valid: CheckoutContact = {
  email: 'jan.novak@example.sk',
  phone: '0905 123 456',
  name: 'Ján Novák',
  billing: { street: 'Hlavná 12', city: 'Žilina', zip: '010 01' },
  company: null,
  delivery: null,
};

describe('checkout rules', () => {
  it('normalises Slovak phone forms to +421', () => {
    expect(normalizeSlovakPhone('+421 905 123 456')).toBe('+421905123456');
    expect(normalizeSlovakPhone('00421905123456')).toBe('+421905123456');
    expect(normalizeSlovakPhone('0905/123 456')).toBe('+421905123456');
    expect(normalizeSlovakPhone('+421 (41) 555 12 34')).toBe('+421415551234');
    expect(normalizeSlovakPhone('+420 905 123 456')).toBeNull();
    expect(normalizeSlovakPhone('12345')).toBeNull();
  });

  it('accepts PSČ with or without the space, only five digits', () => {
    expect(normalizeZip('010 01')).toBe('01001');
    expect(normalizeZip('01001')).toBe('01001');
    expect(normalizeZip('0100')).toBeNull();
    expect(normalizeZip('0100A')).toBeNull();
  });

  it('gives one Slovak message per invalid field', () => {
    expect(validateContact(valid)).toEqual({});
    const errors = validateContact({
      ...emptyContact(),
      company: { name: '', ico: '123', dic: '12', icDph: 'CZ1' },
      delivery: { name: '', street: '', city: '', zip: '' },
    });
    expect(Object.keys(errors).sort()).toEqual([
      'billing.city',
      'billing.street',
      'billing.zip',
      'company.dic',
      'company.icDph',
      'company.ico',
      'company.name',
      'delivery.city',
      'delivery.name',
      'delivery.street',
      'delivery.zip',
      'email',
      'name',
      'phone',
    ]);
    expect(errors['billing.zip']).toBe('PSČ má 5 číslic, napr. 010 01.');
    expect(validateContact({ ...valid, company: { name: 'Firma s.r.o.', ico: '12345678', dic: '2020123456', icDph: '' } })).toEqual({});
  });
});
