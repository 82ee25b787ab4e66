// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getLocalStorage } from './browser-storage.ts';

describe('getLocalStorage', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });
  it('returns window.localStorage in a browser', () => {
    expect(getLocalStorage()).toBe(window.localStorage);
  });
  it('returns null when access throws', () => {
    vi.stubGlobal('localStorage', undefined);
    Object.defineProperty(globalThis, 'localStorage', {
      configurable: true,
      get() {
        throw new DOMException('denied', 'SecurityError');
      },
    });
    expect(getLocalStorage()).toBeNull();
  });
  it('returns null when there is no localStorage', () => {
    vi.stubGlobal('localStorage', undefined);
    expect(getLocalStorage()).toBeNull();
  });
});
