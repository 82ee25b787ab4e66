// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render } from '@testing-library/react';
import { useAfterHydration } from './use-after-hydration.ts';

function Probe() {
  return <p>{useAfterHydration() ? 'po hydratácii' : 'zo servera'}</p>;
}

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('useAfterHydration', () => {
  it('is false while the server HTML hydrates (no mismatch), true once it has', async () => {
    // What the server rendered (a server has no effects, so the hook is false there).
    const container = document.createElement('div');
    container.innerHTML = '<p>zo servera</p>';
    document.body.append(container);
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const reported: unknown[] = [];
    const onError = (event: ErrorEvent) => reported.push(event.error);
    window.addEventListener('error', onError);
    await act(async () => {
      render(<Probe />, { container, hydrate: true });
    });
    window.removeEventListener('error', onError);
    expect(errors).not.toHaveBeenCalled();
    expect(reported).toEqual([]);
    expect(container.textContent).toBe('po hydratácii');
  });

  it('renders false first in a page the browser renders itself, then true', async () => {
    const seen: boolean[] = [];
    function Recorder() {
      const after = useAfterHydration();
      seen.push(after);
      return null;
    }
    await act(async () => {
      render(<Recorder />);
    });
    expect(seen[0]).toBe(false);
    expect(seen.at(-1)).toBe(true);
  });
});
