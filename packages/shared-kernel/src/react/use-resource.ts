import { useCallback, useContext, useEffect, useState } from 'react';
import { ServerRenderContext, type SettledLoad } from './server-render.ts';

export type Resource<T> =
  | { status: 'loading'; data: undefined; error: undefined }
  | { status: 'ready'; data: T; error: undefined }
  | { status: 'error'; data: undefined; error: unknown };

const loading = { status: 'loading', data: undefined, error: undefined } as const;

/** A settled server load as a resource: its data, or an error carrying the answer's status. */
function fromSettled<T>(settled: SettledLoad): Resource<T> {
  if (settled.ok) return { status: 'ready', data: settled.data as T, error: undefined };
  return { status: 'error', data: undefined, error: Object.assign(new Error(settled.message), { status: settled.status }) };
}

type State<T> = { key: string; attempt: number; resource: Resource<T>; fromServer: boolean };

/**
 * Loads data for a page and reloads it whenever `key` changes. A 404 error is
 * rethrown during render, so the shell's boundary shows its not-found page.
 *
 * Under a server render (ServerRenderContext), the first render takes what the server already
 * loaded for `key` (no second request when the browser hydrates); on the server, a key without
 * a value is handed to the renderer to load before the page is rendered again.
 */
export function useResource<T>(key: string, load: (signal: AbortSignal) => Promise<T>): Resource<T> & { reload: () => void } {
  const server = useContext(ServerRenderContext);
  const [state, setState] = useState<State<T>>(() => {
    const settled = server?.data.get(key);
    if (settled) return { key, attempt: 0, resource: fromSettled<T>(settled), fromServer: true };
    server?.collect?.(key, load);
    return { key, attempt: 0, resource: loading, fromServer: false };
  });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    // The server's data for this key is already shown: nothing to load until the key or attempt changes.
    if (state.fromServer && state.key === key && state.attempt === attempt) return;
    const controller = new AbortController();
    setState((current) =>
      current.key === key && current.attempt === attempt && !current.fromServer ? current : { key, attempt, resource: loading, fromServer: false },
    );
    load(controller.signal).then(
      (data) => !controller.signal.aborted && setState({ key, attempt, resource: { status: 'ready', data, error: undefined }, fromServer: false }),
      (error: unknown) =>
        !controller.signal.aborted && setState({ key, attempt, resource: { status: 'error', data: undefined, error }, fromServer: false }),
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
