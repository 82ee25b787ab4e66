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
import { ApiError } from './errors.ts';
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
/**
 * A sign-out the API has not confirmed (the network or the server failed): the page is signed
 * out, but the session and its HttpOnly cookie would live on in this browser, on a shared
 * computer for the next person. Kept until a later call revokes it.
 */
export const LOGOUT_PENDING_KEY = 'shop:logout-pending';

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
   * its cookie), empties the auth state and clears the coupon locally. The
   * basket is kept. A call the network or the server failed is not lost: it is
   * remembered and sent again at the next start and when the browser is back
   * online (finishPendingLogout); the promise still resolves.
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

/** A failure the session may have outlived: no answer, or the server's own error. */
const unconfirmed = (error: unknown) => !(error instanceof ApiError) || error.status === 0 || error.status >= 500;

function setLogoutPending(pending: boolean): void {
  try {
    const storage = getLocalStorage();
    if (pending) storage?.setItem(LOGOUT_PENDING_KEY, '1');
    else storage?.removeItem(LOGOUT_PENDING_KEY);
  } catch {
    // storage refused: nothing to remember it in
  }
}

function revokeSession(): Promise<void> {
  return api.call('POST /api/account/logout').then(
    () => setLogoutPending(false),
    (error: unknown) => setLogoutPending(unconfirmed(error)),
  );
}

let finishing: Promise<void> | null = null;

/**
 * Sends a sign-out the API never confirmed, once at a time; a 2xx or a 4xx (the session is
 * already gone) ends it, another failure keeps it for the next try.
 */
export function finishPendingLogout(): Promise<void> {
  let pending = false;
  try {
    pending = getLocalStorage()?.getItem(LOGOUT_PENDING_KEY) === '1';
  } catch {
    // unreadable: nothing pending
  }
  if (!pending || isAuthenticated(useAuthStore.getState())) return Promise.resolve();
  finishing ??= revokeSession().finally(() => {
    finishing = null;
  });
  return finishing;
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
      // The new session's cookie replaced the old one: a pending sign-out would now revoke the new one.
      setLogoutPending(false);
      change(state);
    },
    renew: (expiresAt) => {
      const { auth } = get();
      const state = 'user' in auth ? signedInState({ ...auth, expiresAt: toMillis(expiresAt) }) : null;
      if (state) change(state);
    },
    logout: async () => {
      // The request is built synchronously before the local sign-out, as a signed-in one.
      const pending = isAuthenticated(get()) ? revokeSession() : Promise.resolve();
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
