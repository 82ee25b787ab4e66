/**
 * The signed-in state (requirements R3.1, R4.1): an empty object when signed
 * out, { auth: 1, user, expiresAt } after login. The session's token is never
 * here: the API keeps it in an HttpOnly cookie the page cannot read (one
 * injected script would otherwise take the account). What is here is what the
 * page shows without asking the API (who is signed in, until when), persisted
 * in localStorage under 'auth'.
 */
import { create } from 'zustand';
import { api, configureApi } from './api-client.ts';
import {
  expiryFromToken,
  isAuthenticated,
  signedInState,
  signedInUserId,
  userIdFromToken,
  type AuthState,
  type SessionUser,
  type SignedIn,
} from '../rules/auth-token.ts';
import { getLocalStorage } from './browser-storage.ts';
import { bus } from './event-bus.ts';

export type { AuthState, SessionUser, SignedIn, SignedOut } from '../rules/auth-token.ts';

export const AUTH_STORAGE_KEY = 'auth';

/** What POST /api/account/login answers besides the token: the user and when the session ends (ISO or ms). */
export type SessionStart = { user: SessionUser; expiresAt: string | number };

export type AuthStore = {
  auth: AuthState;
  /**
   * Signed in: the API has set the session cookie; the store keeps the user and the end of the
   * session. A token string (what areas built against kernel 2.0.0 pass) is read for its user id
   * and expiry only, never kept.
   */
  login: (session: SessionStart | string) => void;
  /** The session goes on with a fresh token (password change): a new end, the same user. */
  renew: (expiresAt: string | number) => void;
  /**
   * Calls POST /api/account/logout (the API revokes the session and clears
   * its cookie; a failure is ignored), empties the auth state and clears the
   * coupon locally. The basket is kept.
   */
  logout: () => Promise<void>;
  /**
   * Empties the auth state without calling the API (e.g. after a 401). Emits
   * auth:signed-out first, on which the coupon store clears the coupon.
   */
  signOutLocally: () => void;
};

const toMillis = (value: string | number) => (typeof value === 'number' ? value : Date.parse(value));

function stateOf(session: SessionStart | string): SignedIn | null {
  if (typeof session === 'string') {
    const id = userIdFromToken(session);
    const expiresAt = expiryFromToken(session);
    return id && expiresAt ? signedInState({ auth: 1, user: { id, name: '', email: '' }, expiresAt }) : null;
  }
  return signedInState({ auth: 1, user: session?.user, expiresAt: toMillis(session?.expiresAt) });
}

function readStoredAuth(): AuthState {
  const storage = getLocalStorage();
  try {
    const raw = storage?.getItem(AUTH_STORAGE_KEY);
    if (!raw) return {};
    const parsed: unknown = JSON.parse(raw);
    const state = signedInState(parsed);
    if (state) return state;
    // A token kept by an older version (or anything else unusable) leaves the storage now.
    storage?.removeItem(AUTH_STORAGE_KEY);
  } catch {
    // unreadable: signed out
  }
  return {};
}

function writeStoredAuth(auth: AuthState): void {
  const storage = getLocalStorage();
  if (!storage) return;
  try {
    if (isAuthenticated(auth)) storage.setItem(AUTH_STORAGE_KEY, JSON.stringify(auth));
    else storage.removeItem(AUTH_STORAGE_KEY);
  } catch {
    // storage refused: the state lives in memory only (the cookie still holds the session)
  }
}

export const useAuthStore = create<AuthStore>()((set, get) => {
  const change = (auth: AuthState) => {
    set({ auth });
    writeStoredAuth(auth);
    bus.emit('auth:changed', { authenticated: isAuthenticated(auth), userId: signedInUserId(auth) });
  };

  const signOutLocally = () => {
    const wasSignedIn = isAuthenticated(get());
    bus.emit('auth:signed-out', { wasSignedIn });
    if (wasSignedIn) change({});
  };

  return {
    auth: {},
    login: (session) => {
      const state = stateOf(session);
      if (!state) throw new TypeError('login: a user and a future expiry (or a token carrying them) are required');
      change(state);
    },
    renew: (expiresAt) => {
      const { auth } = get();
      const state = 'user' in auth ? signedInState({ ...auth, expiresAt: toMillis(expiresAt) }) : null;
      if (state) change(state);
    },
    logout: async () => {
      // The request is built synchronously before the local sign-out, as a signed-in one.
      const pending = isAuthenticated(get())
        ? api.call('POST /api/account/logout').then(
            () => undefined,
            () => undefined,
          )
        : Promise.resolve();
      signOutLocally();
      await pending;
    },
    signOutLocally,
  };
});

// The default API client knows whether the shopper is signed in (a 401 then means the session
// ended) and signs out locally on it. The session itself rides in the cookie.
configureApi({
  isSignedIn: () => isAuthenticated(useAuthStore.getState()),
  onUnauthorized: () => useAuthStore.getState().signOutLocally(),
});

// Created with what a server render sees (zustand keeps it as the initial state, which React
// uses while hydrating a server-rendered page), then given this browser's state.
useAuthStore.setState({ auth: readStoredAuth() });
