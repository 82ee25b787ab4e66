/**
 * Safe access to window.localStorage: null outside a browser, and null when
 * the browser refuses access (privacy mode, disabled storage, sandboxed frame).
 */
export function getLocalStorage(): Storage | null {
  try {
    return typeof globalThis.localStorage === 'undefined' ? null : globalThis.localStorage;
  } catch {
    return null;
  }
}
