import { describe, expect, it } from 'vitest';
import { ApiError, NotFoundError, isNotFound } from './errors.ts';

describe('NotFoundError', () => {
  it('carries status 404 and the required message (requirements R8.3)', () => {
    const e = new NotFoundError('/p/stary-produkt');
    expect(e).toBeInstanceOf(Error);
    expect(e.status).toBe(404);
    expect(e.message).toBe('Page Not Found: /p/stary-produkt');
    expect(e.path).toBe('/p/stary-produkt');
    expect(e.name).toBe('NotFoundError');
  });
});

describe('isNotFound', () => {
  it('recognises a NotFoundError and an ApiError 404', () => {
    expect(isNotFound(new NotFoundError('/x'))).toBe(true);
    expect(isNotFound(new ApiError(404, 'not_found', 'Nenájdené'))).toBe(true);
  });
  it('checks status structurally', () => {
    expect(isNotFound({ status: 404 })).toBe(true);
    expect(isNotFound({ status: '404' })).toBe(false);
    expect(isNotFound({ status: 500 })).toBe(false);
  });
  it('is false for everything else', () => {
    expect(isNotFound(new Error('Page Not Found: /x'))).toBe(false);
    expect(isNotFound(null)).toBe(false);
    expect(isNotFound(undefined)).toBe(false);
    expect(isNotFound(404)).toBe(false);
  });
});

describe('ApiError', () => {
  it('carries status, code and message', () => {
    const cause = new TypeError('fetch failed');
    const e = new ApiError(409, 'conflict', 'Konflikt', { cause });
    expect(e).toBeInstanceOf(Error);
    expect(e).toMatchObject({ status: 409, code: 'conflict', message: 'Konflikt', name: 'ApiError' });
    expect(e.cause).toBe(cause);
  });
});
