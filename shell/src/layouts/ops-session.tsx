import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { call } from '@shop/shared-kernel';

/** The operator signed in on /ops: undefined while the page asks, null when nobody is. */
export type OpsSession = {
  operator: string | null | undefined;
  /** Why the sign-in form is shown again (signed out, the session ended), if it is. */
  notice: string | null;
  signedIn: (name: string) => void;
  /** The session ended elsewhere (expired, revoked): back to the sign-in form with `notice`. */
  ended: (notice: string) => void;
  signOut: () => Promise<void>;
};

const OpsSessionContext = createContext<OpsSession | null>(null);

/** Who is signed in on /ops, shared by the operators' header (name, sign-out) and the page. */
export function OpsSessionProvider({ children }: { children: ReactNode }) {
  const [operator, setOperator] = useState<string | null | undefined>(undefined);
  const [notice, setNotice] = useState<string | null>(null);

  useEffect(() => {
    let current = true;
    void call('GET /api/ops/session').then(
      (answer) => current && setOperator(answer.data?.name ?? null),
      () => current && setOperator(null),
    );
    return () => {
      current = false;
    };
  }, []);

  const signedIn = useCallback((name: string) => {
    setNotice(null);
    setOperator(name);
  }, []);
  const ended = useCallback((why: string) => {
    setOperator(null);
    setNotice(why);
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

  const session = useMemo(() => ({ operator, notice, signedIn, ended, signOut }), [operator, notice, signedIn, ended, signOut]);
  return <OpsSessionContext.Provider value={session}>{children}</OpsSessionContext.Provider>;
}

export function useOpsSession(): OpsSession {
  const session = useContext(OpsSessionContext);
  if (!session) throw new Error('useOpsSession is used inside the ops layout');
  return session;
}
