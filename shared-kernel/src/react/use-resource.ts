import { useCallback, useEffect, useState } from 'react';

export type Resource<T> =
  | { status: 'loading'; data: undefined; error: undefined }
  | { status: 'ready'; data: T; error: undefined }
  | { status: 'error'; data: undefined; error: unknown };

const loading = { status: 'loading', data: undefined, error: undefined } as const;

/**
 * Loads data for a page and reloads it whenever `key` changes. A 404 error is
 * rethrown during render, so the shell's boundary shows its not-found page.
 */
export function useResource<T>(key: string, load: (signal: AbortSignal) => Promise<T>): Resource<T> & { reload: () => void } {
  const [state, setState] = useState<{ key: string; attempt: number; resource: Resource<T> }>({
    key,
    attempt: 0,
    resource: loading,
  });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    setState((current) => (current.key === key && current.attempt === attempt ? current : { key, attempt, resource: loading }));
    load(controller.signal).then(
      (data) => !controller.signal.aborted && setState({ key, attempt, resource: { status: 'ready', data, error: undefined } }),
      (error: unknown) =>
        !controller.signal.aborted && setState({ key, attempt, resource: { status: 'error', data: undefined, error } }),
    );
    return () => controller.abort();
    // `load` is keyed by `key`: a new key means new data.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, attempt]);

  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  const resource = state.key === key ? state.resource : loading;
  if (resource.status === 'error' && (resource.error as { status?: unknown } | null)?.status === 404) {
    throw resource.error;
  }
  return { ...resource, reload };
}
