/**
 * The signed-in state as data (spec section 3): an empty object when signed
 * out, { auth: 1, token } after login; the token is a JWT whose payload
 * carries user_id. Pure: the auth store keeps the one state, every part may
 * bundle these readers of it (e.g. `useAuthStore(isAuthenticated)`).
 */
export type SignedOut = Record<string, never>;
export type SignedIn = { auth: 1; token: string };
export type AuthState = SignedOut | SignedIn;

/** The token of a signed-in state, otherwise null. */
export function authToken(auth: AuthState): string | null {
  return 'token' in auth && typeof auth.token === 'string' && auth.token ? auth.token : null;
}

/**
 * Authenticated means the auth object is non-empty (spec section 3).
 * Takes the store state (usable as a selector: useAuthStore(isAuthenticated))
 * or the auth object itself.
 */
export function isAuthenticated(state: { readonly auth: AuthState } | AuthState): boolean {
  const inner: unknown = (state as { auth?: unknown }).auth;
  const auth = typeof inner === 'object' && inner !== null ? inner : state;
  return Object.keys(auth).length > 0;
}

function decodeBase64Url(part: string): string {
  const base64 = part.replace(/-/g, '+').replace(/_/g, '/');
  const padded = base64.padEnd(Math.ceil(base64.length / 4) * 4, '=');
  const binary = atob(padded);
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

/** user_id from the JWT payload (base64url, not verified); null when absent or unreadable. */
export function userIdFromToken(token: string): number | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const claims: unknown = JSON.parse(decodeBase64Url(payload));
    if (typeof claims !== 'object' || claims === null || !('user_id' in claims)) return null;
    const id = typeof claims.user_id === 'string' ? Number(claims.user_id) : claims.user_id;
    return typeof id === 'number' && Number.isSafeInteger(id) && id > 0 ? id : null;
  } catch {
    return null;
  }
}
