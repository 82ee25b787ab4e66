/**
 * The signed-in state (spec section 3 and 4): an empty object when signed
 * out, { auth: 1, token } after login. The token is a JWT whose payload
 * carries user_id. Persisted in localStorage under 'auth'.
 */
import { create } from 'zustand';
import { api, configureApi } from './api-client.ts';
import { getLocalStorage } from './browser-storage.ts';
import { useCouponStore } from './coupon-store.ts';
import { bus } from './event-bus.ts';

export const AUTH_STORAGE_KEY = 'auth';

export type SignedOut = Record<string, never>;
export type SignedIn = { auth: 1; token: string };
export type AuthState = SignedOut | SignedIn;

export type AuthStore = {
  auth: AuthState;
  /** Signs in with a token from POST /api/account/login. */
  login: (token: string) => void;
  /**
   * Calls POST /api/account/logout with authHash = token (a failure is
   * ignored), empties the auth state and clears the coupon locally.
   * The basket is kept.
   */
  logout: () => Promise<void>;
  /** Empties the auth state and the coupon without calling the API (e.g. after a 401). */
  signOutLocally: () => void;
};

/** The token of a signed-in state, otherwise null. */
export function authToken(auth: AuthState): string | null {
  return 'token' in auth && typeof auth.token === 'string' && auth.token ? auth.token : null;
}

/**
 * Authenticated means the auth object is non-empty (spec section 3).
 * Takes the store state (usable as a selector: useAuthStore(isAuthenticated))
 * or the auth object itself.
 */
export function isAuthenticated(state: Pick<AuthStore, 'auth'> | AuthState): boolean {
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

function readStoredAuth(): AuthState {
  try {
    const raw = getLocalStorage()?.getItem(AUTH_STORAGE_KEY);
    if (!raw) return {};
    const parsed: unknown = JSON.parse(raw);
    if (
      typeof parsed === 'object' &&
      parsed !== null &&
      'auth' in parsed &&
      parsed.auth === 1 &&
      'token' in parsed &&
      typeof parsed.token === 'string' &&
      parsed.token
    ) {
      return { auth: 1, token: parsed.token };
    }
  } catch {
    // unreadable: signed out
  }
  return {};
}

function writeStoredAuth(auth: AuthState): void {
  const storage = getLocalStorage();
  if (!storage) return;
  try {
    if (authToken(auth)) storage.setItem(AUTH_STORAGE_KEY, JSON.stringify(auth));
    else storage.removeItem(AUTH_STORAGE_KEY);
  } catch {
    // storage refused: the session lives in memory only
  }
}

export const useAuthStore = create<AuthStore>()((set, get) => {
  const change = (auth: AuthState) => {
    set({ auth });
    writeStoredAuth(auth);
    const token = authToken(auth);
    bus.emit('auth:changed', {
      authenticated: token !== null,
      userId: token ? userIdFromToken(token) : null,
    });
  };

  const signOutLocally = () => {
    const wasSignedIn = isAuthenticated(get());
    useCouponStore.getState().clear();
    if (wasSignedIn) change({});
  };

  return {
    auth: readStoredAuth(),
    login: (token) => {
      if (typeof token !== 'string' || !token) throw new TypeError('login: token must be a non-empty string');
      change({ auth: 1, token });
    },
    logout: async () => {
      const token = authToken(get().auth);
      // The request (with its token) is built synchronously before the local sign-out.
      const pending = token ? api.logout(token).then(
        () => undefined,
        () => undefined,
      ) : Promise.resolve();
      signOutLocally();
      await pending;
    },
    signOutLocally,
  };
});

// The default API client sends this store's token and signs out locally on a 401.
configureApi({
  getToken: () => authToken(useAuthStore.getState().auth),
  onUnauthorized: () => useAuthStore.getState().signOutLocally(),
});
