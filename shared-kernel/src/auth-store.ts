/**
 * The signed-in state (spec section 3 and 4): an empty object when signed
 * out, { auth: 1, token } after login. The token is a JWT whose payload
 * carries user_id. Persisted in localStorage under 'auth'.
 */
import { create } from 'zustand';
import { api, configureApi } from './api-client.ts';
import { authToken, isAuthenticated, userIdFromToken, type AuthState } from './auth-token.ts';
import { getLocalStorage } from './browser-storage.ts';
import { bus } from './event-bus.ts';

export type { AuthState, SignedIn, SignedOut } from './auth-token.ts';

export const AUTH_STORAGE_KEY = 'auth';

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
  /**
   * Empties the auth state without calling the API (e.g. after a 401). Emits
   * auth:signed-out first, on which the coupon store clears the coupon.
   */
  signOutLocally: () => void;
};

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
    bus.emit('auth:signed-out', { wasSignedIn });
    if (wasSignedIn) change({});
  };

  return {
    auth: {},
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

// Created with what a server render sees (zustand keeps it as the initial state, which React
// uses while hydrating a server-rendered page), then given this browser's state.
useAuthStore.setState({ auth: readStoredAuth() });
