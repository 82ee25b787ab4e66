import { describe, expect, it } from 'vitest';
import { ApiError } from '../singleton/errors.ts';
import { invoiceErrorMessage } from './use-invoice-download.ts';

describe('invoiceErrorMessage', () => {
  it('tells who may download it on a 401 or 403', () => {
    const text = 'Faktúru si môže stiahnuť iba zákazník, ktorý objednávku vytvoril (prihláste sa).';
    expect(invoiceErrorMessage(new ApiError(401, 'unauthorized', 'Prihláste sa.'))).toBe(text);
    expect(invoiceErrorMessage(new ApiError(403, 'forbidden', 'Nie.'))).toBe(text);
  });

  it("shows the API's message for another refusal, and a general one otherwise", () => {
    expect(invoiceErrorMessage(new ApiError(404, 'not_found', 'Objednávka neexistuje.'))).toBe('Objednávka neexistuje.');
    expect(invoiceErrorMessage(new ApiError(500, 'internal', 'x'))).toBe('Faktúru sa nepodarilo stiahnuť.');
    expect(invoiceErrorMessage(new ApiError(0, 'internal', 'Server je momentálne nedostupný.'))).toBe('Faktúru sa nepodarilo stiahnuť.');
    expect(invoiceErrorMessage(new Error('boom'))).toBe('Faktúru sa nepodarilo stiahnuť.');
  });
});
