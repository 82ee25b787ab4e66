import { useCallback, useRef, useState, type FormEvent } from 'react';

/**
 * A form's sending state: `busy` while the action runs (a second submit meanwhile is ignored),
 * `error` the message of its failure (`describe` turns what it threw into the area's Slovak
 * text), or the message the action returns when it refuses to send (a missing field).
 */
export function useSubmit<A extends unknown[]>(action: (...args: A) => Promise<string | void>, describe: (caught: unknown) => string) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const running = useRef(false);
  const latest = useRef({ action, describe });
  latest.current = { action, describe };

  const submit = useCallback(async (...args: A): Promise<void> => {
    if (running.current) return;
    running.current = true;
    setBusy(true);
    setError(null);
    try {
      const refusal = await latest.current.action(...args);
      if (typeof refusal === 'string') setError(refusal);
    } catch (caught) {
      setError(latest.current.describe(caught));
    } finally {
      running.current = false;
      setBusy(false);
    }
  }, []);

  /** The form's onSubmit: no page load, then the action (with no arguments). */
  const onSubmit = useCallback(
    (event: FormEvent) => {
      event.preventDefault();
      void (submit as () => Promise<void>)();
    },
    [submit],
  );

  return { submit, onSubmit, busy, error, setError };
}
