import { describe, expect, it } from 'vitest';
import { act } from 'react';
import { renderToString } from 'react-dom/server';
import { hydrateRoot } from 'react-dom/client';
import { useAfterHydration } from './use-after-hydration.ts';

function Probe() {
  return <p>{useAfterHydration() ? 'po hydratácii' : 'zo servera'}</p>;
}

describe('useAfterHydration', () => {
  it('is false in the server HTML and its hydration (no mismatch), true once the page has hydrated', async () => {
    const container = document.createElement('div');
    container.innerHTML = renderToString(<Probe />);
    expect(container.textContent).toBe('zo servera');
    const mismatches: unknown[] = [];
    const root = await act(async () => hydrateRoot(container, <Probe />, { onRecoverableError: (error) => mismatches.push(error) }));
    expect(mismatches).toEqual([]);
    expect(container.textContent).toBe('po hydratácii');
    act(() => root.unmount());
  });
});
