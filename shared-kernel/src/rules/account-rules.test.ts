import { describe, expect, it } from 'vitest';
import {
  checkPassword,
  complaintSettleBy,
  daysLeft,
  imageTypeOf,
  mergeCheckoutPrefill,
  normalizeOptionalPhone,
  signInPath,
  validateAddress,
  validateProfile,
  withdrawalDeadline,
} from './account-rules.ts';
import { emptyContact } from './checkout-rules.ts';

describe('account rules', () => {
  it('passwords need 8 characters, a letter and a digit', () => {
    expect(checkPassword('Heslo123!')).toBeNull();
    expect(checkPassword('kratke1')).not.toBeNull();
    expect(checkPassword('12345678')).not.toBeNull();
    expect(checkPassword('bezčísla')).not.toBeNull();
  });

  it('profile and address validation reuse the checkout messages', () => {
    expect(validateProfile({ name: 'Ján Novák', email: 'jan@example.sk', phone: '', company: null, newsletter: false })).toEqual({});
    const errors = validateProfile({
      name: 'Ján',
      email: 'x',
      phone: '123',
      company: { name: 'F', ico: '1', dic: '2', icDph: 'X' },
      newsletter: false,
    });
    expect(Object.keys(errors).sort()).toEqual(['company.dic', 'company.icDph', 'company.ico', 'company.name', 'email', 'name', 'phone']);
    expect(validateAddress({ name: 'Jana Nová', street: 'Dlhá 1', city: 'Nitra', zip: '949 01' })).toEqual({});
    expect(Object.keys(validateAddress({ name: 'J', street: 'Dlhá', city: '', zip: '9' })).sort()).toEqual([
      'city',
      'name',
      'street',
      'zip',
    ]);
    expect(normalizeOptionalPhone(' ')).toBe('');
    expect(normalizeOptionalPhone('0905 123 456')).toBe('+421905123456');
    expect(normalizeOptionalPhone('123')).toBeNull();
  });

  it('withdrawal ends 14 days after delivery (end of day, UTC); complaints are settled within 30 days', () => {
    expect(withdrawalDeadline('2026-06-10T08:00:00.000Z')).toBe('2026-06-24T23:59:59.999Z');
    expect(complaintSettleBy('2026-06-10T08:00:00.000Z')).toBe('2026-07-10T08:00:00.000Z');
    expect(daysLeft('2026-07-10T08:00:00.000Z', new Date('2026-07-01T08:00:00.000Z'))).toBe(9);
  });

  it('recognises JPEG, PNG and WebP by their first bytes only', () => {
    expect(imageTypeOf(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(imageTypeOf(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe('image/png');
    expect(imageTypeOf(new TextEncoder().encode('RIFF\0\0\0\0WEBPVP8 '))).toBe('image/webp');
    expect(imageTypeOf(new TextEncoder().encode('<svg onload=x>'))).toBeNull();
    expect(imageTypeOf(new Uint8Array([]))).toBeNull();
  });

  it('the checkout prefill fills only empty fields', () => {
    const prefill = {
      contact: {
        email: 'jana@example.sk',
        phone: '+421905111222',
        name: 'Jana Nová',
        billing: { street: 'Dlhá 1', city: 'Nitra', zip: '94901' },
        company: null,
        delivery: { name: 'Stavba', street: 'Poľná 7', city: 'Senec', zip: '90301' },
      },
    };
    const typed = { ...emptyContact(), name: 'Iné Meno', billing: { street: 'Moja 5', city: '', zip: '' } };
    expect(mergeCheckoutPrefill(typed, prefill)).toEqual({
      email: 'jana@example.sk',
      phone: '+421905111222',
      name: 'Iné Meno',
      billing: { street: 'Moja 5', city: '', zip: '' },
      company: null,
      delivery: { name: 'Stavba', street: 'Poľná 7', city: 'Senec', zip: '90301' },
    });
    expect(mergeCheckoutPrefill(emptyContact(), prefill).billing).toEqual({ street: 'Dlhá 1', city: 'Nitra', zip: '94901' });
  });
});

describe('signInPath', () => {
  it('sends a guest to sign in with the page and its query as next', () => {
    expect(signInPath('/account/orders', '?page=2')).toBe('/account/login?next=%2Faccount%2Forders%3Fpage%3D2');
    expect(signInPath('/account/profile')).toBe('/account/login?next=%2Faccount%2Fprofile');
  });
});
