/**
 * A section's data: loaded when shown (and again when `deps` change or `reload()` is called), the
 * last answer kept while the next one loads; a session that ended is told to the console.
 */
import { useCallback, useEffect, useState } from 'react';
import { messageOf, sessionEnded } from './api.ts';
import { useSession } from './session/session.tsx';

export type Loaded<T> = { data: T | null; error: string | null; reload: () => void };

export function useLoad<T>(load: () => Promise<T>, deps: readonly unknown[]): Loaded<T> {
  const { ended } = useSession();
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [round, setRound] = useState(0);
  // The caller names what the load depends on, as with useEffect.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const run = useCallback(load, deps);
  useEffect(() => {
    let current = true;
    run().then(
      (answer) => {
        if (!current) return;
        setData(answer);
        setError(null);
      },
      (failure: unknown) => {
        if (!current) return;
        if (sessionEnded(failure)) ended();
        else setError(messageOf(failure));
      },
    );
    return () => {
      current = false;
    };
  }, [run, round, ended]);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  return { data, error, reload };
}
