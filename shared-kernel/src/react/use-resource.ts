import { useCallback, useContext, useEffect, useRef, useState } from 'react';
import { ServerRenderContext, type SettledLoad } from './server-render.ts';

export type Resource<T> =
  | { status: 'loading'; data: undefined; error: undefined }
  /** Loading, with the last key's data kept (`keep`). */
  | { status: 'loading'; data: T; error: undefined }
  | { status: 'ready'; data: T; error: undefined }
  | { status: 'error'; data: undefined; error: unknown };

/** What a page loads: the key its data is known by, and how it is loaded (the API client's `resource(…)`). */
export type ResourceSource<T> = { key: string; load: (signal: AbortSignal) => Promise<T> };

export type ResourceOptions<T, S> = {
  /** The part of the answer the page uses (applied at render: the loaded and server-embedded data is the whole answer). */
  select?: (data: T) => S;
  /**
   * Keep showing the last loaded data while the next key loads, so a listing does not collapse and
   * jump when a filter, the sort or the page changes: `true` always, a string only within that
   * scope (another category's listing is not kept).
   */
  keep?: boolean | string;
};

export type ResourceState<S> = Resource<S> & {
  reload: () => void;
  /** The shown data belongs to an earlier key (kept while this one loads). */
  stale: boolean;
};

/** The `data` of an answer `{ data }`: the usual `select`. */
export const dataOf = <T>(answer: { data: T }): T => answer.data;

const loading = { status: 'loading', data: undefined, error: undefined } as const;

type Loaded = { status: 'loading' } | { status: 'ready'; data: unknown } | { status: 'error'; error: unknown };

/** A settled server load: its data, or an error carrying the answer's status. */
function fromSettled(settled: SettledLoad): Loaded {
  if (settled.ok) return { status: 'ready', data: settled.data };
  return { status: 'error', error: Object.assign(new Error(settled.message), { status: settled.status }) };
}

type State = { key: string | null; attempt: number; loaded: Loaded; fromServer: boolean };

/**
 * Loads data for a page and reloads it whenever the source's key changes, aborting the load of
 * the key before. A 404 error is rethrown during render, so the shell's boundary shows its
 * not-found page. A `null` source loads nothing (yet).
 *
 * Under a server render (ServerRenderContext), the first render takes what the server already
 * loaded for the key (no second request when the browser hydrates); on the server, a key without
 * a value is handed to the renderer to load before the page is rendered again.
 */
export function useResource<T, S = T>(source: ResourceSource<T> | null, options: ResourceOptions<T, S> = {}): ResourceState<S> {
  const key = source?.key ?? null;
  const server = useContext(ServerRenderContext);
  const [state, setState] = useState<State>(() => {
    const settled = key === null ? undefined : server?.data.get(key);
    if (settled) return { key, attempt: 0, loaded: fromSettled(settled), fromServer: true };
    if (source) server?.collect?.(source.key, source.load);
    return { key, attempt: 0, loaded: { status: 'loading' }, fromServer: false };
  });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    // The server's data for this key is already shown: nothing to load until the key or attempt changes.
    if (state.fromServer && state.key === key && state.attempt === attempt) return;
    if (!source) return;
    const controller = new AbortController();
    setState((current) =>
      current.key === key && current.attempt === attempt && !current.fromServer
        ? current
        : { key, attempt, loaded: { status: 'loading' }, fromServer: false },
    );
    source.load(controller.signal).then(
      (data) => !controller.signal.aborted && setState({ key, attempt, loaded: { status: 'ready', data }, fromServer: false }),
      (error: unknown) => !controller.signal.aborted && setState({ key, attempt, loaded: { status: 'error', error }, fromServer: false }),
    );
    return () => controller.abort();
    // The source's load is keyed by its key: a new key means new data.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, attempt]);

  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  const loaded: Loaded = state.key === key ? state.loaded : { status: 'loading' };
  if (loaded.status === 'error' && (loaded.error as { status?: unknown } | null)?.status === 404) throw loaded.error;

  const select = options.select ?? ((data: T) => data as unknown as S);
  const scope = options.keep === undefined || options.keep === false ? null : String(options.keep);
  const last = useRef<{ scope: string; data: T } | undefined>(undefined);
  if (loaded.status === 'ready' && scope !== null) last.current = { scope, data: loaded.data as T };
  if (loaded.status === 'ready') return { status: 'ready', data: select(loaded.data as T), error: undefined, reload, stale: false };
  if (loaded.status === 'error') return { status: 'error', data: undefined, error: loaded.error, reload, stale: false };
  const kept = scope !== null && last.current?.scope === scope ? last.current.data : undefined;
  if (kept === undefined) return { ...loading, reload, stale: false };
  return { status: 'loading', data: select(kept), error: undefined, reload, stale: true };
}
