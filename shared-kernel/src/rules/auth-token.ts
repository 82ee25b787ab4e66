/**
 * The signed-in state as data (requirements R3.1): an empty object when signed
 * out, { auth: 1, user, expiresAt } after login. The token itself (a JWT whose
 * payload carries user_id) is never here: the browser holds it only as the
 * API's HttpOnly session cookie, out of reach of any script on the page; this
 * state is what the page shows (who is signed in, until when). Pure: the auth
 * store keeps the one state, every part may bundle these readers of it (e.g.
 * `useAuthStore(isAuthenticated)`).
 */
export type SignedOut = Record<string, never>;
/** The signed-in shopper as the page shows them (name and e-mail empty when unknown). */
export type SessionUser = { id: number; name: string; email: string };
/** expiresAt: when the session ends, in milliseconds since the epoch. */
export type SignedIn = { auth: 1; user: SessionUser; expiresAt: number };
export type AuthState = SignedOut | SignedIn;

/** The signed-in shopper's id, otherwise null. */
export function signedInUserId(auth: AuthState): number | null {
  return 'user' in auth && auth.user ? auth.user.id : null;
}

/** A signed-in state from what the page may keep (shape checked: it comes from storage or an older area), or null. */
export function signedInState(value: unknown, now = Date.now()): SignedIn | null {
  if (typeof value !== 'object' || value === null) return null;
  const { auth, user, expiresAt } = value as { auth?: unknown; user?: unknown; expiresAt?: unknown };
  if (auth !== 1 || typeof expiresAt !== 'number' || !(expiresAt > now)) return null;
  if (typeof user !== 'object' || user === null) return null;
  const { id, name, email } = user as { id?: unknown; name?: unknown; email?: unknown };
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1 || typeof name !== 'string' || typeof email !== 'string') return null;
  return { auth: 1, user: { id, name, email }, expiresAt };
}

/**
 * Authenticated means the auth object is non-empty (requirements R3.1).
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

function claimsOf(token: string): Record<string, unknown> | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const claims: unknown = JSON.parse(decodeBase64Url(payload));
    return typeof claims === 'object' && claims !== null ? (claims as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** user_id from the JWT payload (base64url, not verified); null when absent or unreadable. */
export function userIdFromToken(token: string): number | null {
  const claims = claimsOf(token);
  if (!claims || !('user_id' in claims)) return null;
  const id = typeof claims.user_id === 'string' ? Number(claims.user_id) : claims.user_id;
  return typeof id === 'number' && Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** The session end (exp claim, milliseconds) of a JWT, not verified; null when absent. */
export function expiryFromToken(token: string): number | null {
  const exp = claimsOf(token)?.exp;
  return typeof exp === 'number' && Number.isFinite(exp) ? exp * 1000 : null;
}
