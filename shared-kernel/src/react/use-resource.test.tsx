// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, renderHook, screen, waitFor } from '@testing-library/react';
import { ServerRenderContext, type ServerRender } from './server-render.ts';
import { useResource, type ResourceSource } from './use-resource.ts';
import { LoadFailed } from './load-failed.tsx';
import { useSubmit } from './use-submit.ts';

afterEach(cleanup);

/** A source whose loads wait until the test settles them. */
function deferred(key: string) {
  const pending: { resolve: (value: { data: string }) => void; signal: AbortSignal }[] = [];
  const source: ResourceSource<{ data: string }> = {
    key,
    load: (signal) => new Promise((resolve) => pending.push({ resolve, signal })),
  };
  return { source, pending };
}

describe('useResource', () => {
  it('loads a key, aborts it when the key changes, and selects the part the page uses', async () => {
    const a = deferred('GET /api/a');
    const b = deferred('GET /api/b');
    const { result, rerender } = renderHook(({ source }) => useResource(source, { select: (answer) => answer.data }), {
      initialProps: { source: a.source },
    });
    expect(result.current.status).toBe('loading');
    rerender({ source: b.source });
    expect(a.pending[0]!.signal.aborted).toBe(true);
    await act(async () => b.pending[0]!.resolve({ data: 'b' }));
    expect(result.current).toMatchObject({ status: 'ready', data: 'b', stale: false });
  });

  it('keeps the last data while the next key loads (within its scope)', async () => {
    const a = deferred('GET /api/a');
    const b = deferred('GET /api/b');
    const { result, rerender } = renderHook(({ source, scope }) => useResource(source, { keep: scope }), {
      initialProps: { source: a.source, scope: 'x' },
    });
    await act(async () => a.pending[0]!.resolve({ data: 'a' }));
    rerender({ source: b.source, scope: 'x' });
    expect(result.current).toMatchObject({ status: 'loading', data: { data: 'a' }, stale: true });
    rerender({ source: b.source, scope: 'y' });
    expect(result.current).toMatchObject({ status: 'loading', data: undefined, stale: false });
  });

  it('loads nothing for a null source', () => {
    const { result } = renderHook(() => useResource(null));
    expect(result.current.status).toBe('loading');
  });

  it('takes what the server loaded for its key, and hands the server a key it has not loaded', () => {
    const asked: string[] = [];
    const server: ServerRender = {
      data: new Map([['GET /api/a', { ok: true, data: { data: 'z' } }]]),
      collect: (key) => void asked.push(key),
    };
    const wrapper = ({ children }: { children: React.ReactNode }) => (
      <ServerRenderContext.Provider value={server}>{children}</ServerRenderContext.Provider>
    );
    const { result } = renderHook(() => [useResource(deferred('GET /api/a').source), useResource(deferred('GET /api/b').source)], {
      wrapper,
    });
    expect(result.current[0]).toMatchObject({ status: 'ready', data: { data: 'z' } });
    expect(asked).toEqual(['GET /api/b']);
  });
});

describe('LoadFailed', () => {
  it('says what failed and loads again', () => {
    let retried = 0;
    render(
      <LoadFailed className="cat-empty" onRetry={() => (retried += 1)}>
        Produkt sa nepodarilo načítať.
      </LoadFailed>,
    );
    expect(screen.getByRole('alert').className).toBe('cat-empty');
    expect(screen.getByRole('alert').textContent).toContain('Produkt sa nepodarilo načítať.');
    fireEvent.click(screen.getByRole('button', { name: 'Skúsiť znova' }));
    expect(retried).toBe(1);
  });

  it('inline: one paragraph with the button in it', () => {
    render(
      <LoadFailed inline className="chk-message" buttonClassName="chk-link-button" onRetry={() => undefined}>
        Výdajné miesta sa nepodarilo načítať.
      </LoadFailed>,
    );
    const alert = screen.getByRole('alert');
    expect(alert.tagName).toBe('P');
    expect(alert.textContent).toBe('Výdajné miesta sa nepodarilo načítať. Skúsiť znova');
    expect(screen.getByRole('button').className).toBe('chk-link-button');
  });
});

describe('useSubmit', () => {
  it('is busy while the action runs, shows its refusal or its failure, and ignores a second submit meanwhile', async () => {
    let finish: () => void = () => undefined;
    let runs = 0;
    const { result } = renderHook(() =>
      useSubmit(
        (mode: 'refuse' | 'fail' | 'wait') => {
          runs += 1;
          if (mode === 'refuse') return Promise.resolve('Zadajte e-mail.');
          if (mode === 'fail') return Promise.reject(new Error('x'));
          return new Promise<void>((resolve) => (finish = resolve));
        },
        () => 'Nepodarilo sa.',
      ),
    );
    await act(() => result.current.submit('refuse'));
    expect(result.current.error).toBe('Zadajte e-mail.');
    await act(() => result.current.submit('fail'));
    expect(result.current.error).toBe('Nepodarilo sa.');
    let first: Promise<void> = Promise.resolve();
    act(() => void (first = result.current.submit('wait')));
    expect(result.current).toMatchObject({ busy: true, error: null });
    await act(() => result.current.submit('wait'));
    expect(runs).toBe(3);
    await act(async () => {
      finish();
      await first;
    });
    await waitFor(() => expect(result.current.busy).toBe(false));
  });
});
