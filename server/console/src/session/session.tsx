/**
 * Who is signed in on the console, shared by the header (name, sign-out), the pages and the prompt
 * for a fresh code: `undefined` while the console asks, `null` when nobody is. A release action the
 * server refuses for want of a fresh code (`reauth_required`) asks the operator for one and is sent
 * again once the code is taken.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { ApiCalls } from '@shop/shared-kernel/contract';
import { call, ConsoleError } from '../api.ts';

export type OperatorSession = NonNullable<ApiCalls['GET /api/ops/session']['answer']['data']>;

export type Session = {
  operator: OperatorSession | null | undefined;
  /** Why the sign-in form is shown again (signed out, the session ended), if it is. */
  notice: string | null;
  signedIn: (session: OperatorSession) => void;
  /** The session ended elsewhere (expired, idle, revoked): back to the sign-in form. */
  ended: () => void;
  signOut: () => Promise<void>;
  /** Runs a release action; asked for a fresh code, asks the operator and runs it again. */
  withFreshCode: <T>(action: () => Promise<T>) => Promise<T>;
  /** The pending request for a code, shown by the prompt (null: none). */
  codeAsked: { submit: (code: string) => Promise<void>; cancel: () => void } | null;
};

const SessionContext = createContext<Session | null>(null);
const ENDED = 'Prihlásenie vypršalo (po 15 minútach nečinnosti) alebo bolo zrušené. Prihláste sa znova.';
const CANCELLED = 'Akcia nebola potvrdená kódom.';

export function SessionProvider({ children }: { children: ReactNode }) {
  const [operator, setOperator] = useState<OperatorSession | null | undefined>(undefined);
  const [notice, setNotice] = useState<string | null>(null);
  const [codeAsked, setCodeAsked] = useState<Session['codeAsked']>(null);
  const asking = useRef<Promise<void> | null>(null);

  useEffect(() => {
    let current = true;
    void call('GET /api/ops/session').then(
      (answer) => current && setOperator(answer.data ?? null),
      () => current && setOperator(null),
    );
    return () => {
      current = false;
    };
  }, []);

  const signedIn = useCallback((session: OperatorSession) => {
    setNotice(null);
    setOperator(session);
  }, []);
  const ended = useCallback(() => {
    setOperator(null);
    setNotice(ENDED);
    setCodeAsked(null);
  }, []);
  const signOut = useCallback(async () => {
    try {
      await call('DELETE /api/ops/session');
    } catch {
      // Signed out already (or the server is away): the form comes back either way.
    }
    setOperator(null);
    setNotice('Boli ste odhlásení.');
  }, []);

  /** Asks for a code once for every action waiting on it; resolves when the server took one. */
  const askForCode = useCallback(() => {
    asking.current ??= new Promise<void>((resolve, reject) => {
      setCodeAsked({
        submit: async (code) => {
          const answer = await call('POST /api/ops/session/reauth', { body: { code } });
          setOperator(answer.data);
          setCodeAsked(null);
          resolve();
        },
        cancel: () => {
          setCodeAsked(null);
          reject(new ConsoleError(403, 'forbidden', CANCELLED));
        },
      });
    }).finally(() => {
      asking.current = null;
    });
    return asking.current;
  }, []);

  const withFreshCode = useCallback(
    async <T,>(action: () => Promise<T>): Promise<T> => {
      try {
        return await action();
      } catch (error) {
        if (!(error instanceof ConsoleError) || error.refusal !== 'reauth_required') throw error;
        await askForCode();
        return action();
      }
    },
    [askForCode],
  );

  const session = useMemo(
    () => ({ operator, notice, signedIn, ended, signOut, withFreshCode, codeAsked }),
    [operator, notice, signedIn, ended, signOut, withFreshCode, codeAsked],
  );
  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession is used inside SessionProvider');
  return session;
}
