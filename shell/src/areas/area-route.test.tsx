import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';

// The federation runtime is the boundary here: it loads the remote or fails.
const runtime = vi.hoisted(() => ({ loadRemote: vi.fn(), registerRemotes: vi.fn() }));
vi.mock('@module-federation/runtime', () => runtime);

const { AreaRoute } = await import('./area-route.tsx');
const { registerAreas, forgetFailedLoad } = await import('./area-loader.ts');

const route = { name: 'home', path: '/', area: 'catalog', module: './HomePage', layout: 'default' } as const;

async function renderRoute(module: string = route.module) {
  const router = createMemoryRouter([{ path: '/', element: <AreaRoute route={{ ...route, module }} /> }]);
  // Let the (mocked) remote load settle inside act, as React expects in tests.
  await act(async () => {
    render(<RouterProvider router={router} />);
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
}

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  registerAreas(
    {
      catalog: {
        version: '1.0.0-a',
        entry: 'remotes/catalog/1.0.0-a/remoteEntry.js',
        kernel: '3.0.0',
        exposes: ['./HomePage'],
        routes: [],
      },
    },
    'http://assets.test',
  );
});
afterEach(() => {
  cleanup();
  forgetFailedLoad('catalog', './HomePage');
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('AreaRoute', () => {
  it('registers areas as ES-module remotes on the asset origin', () => {
    expect(runtime.registerRemotes).toHaveBeenCalledWith([
      { name: 'catalog', entry: 'http://assets.test/remotes/catalog/1.0.0-a/remoteEntry.js', type: 'module' },
    ]);
  });

  it('shows a Slovak message when the area fails, tries once per render, and recovers on retry', async () => {
    // The entry is not there (404): not a failure another attempt mends (area-loader.test.ts has those).
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('Not found', { status: 404 })),
    );
    runtime.loadRemote.mockRejectedValueOnce(new Error('RUNTIME-008 Failed to load script resources'));
    await renderRoute();
    expect(await screen.findByRole('heading', { name: 'Katalóg produktov sa nepodarilo načítať' })).toBeTruthy();
    expect(runtime.loadRemote).toHaveBeenCalledTimes(1);
    expect(runtime.loadRemote).toHaveBeenCalledWith('catalog/HomePage');

    runtime.loadRemote.mockResolvedValueOnce({ default: () => <h1>Domov z katalógu</h1> });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Skúsiť znova' }));
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
    expect(await screen.findByRole('heading', { name: 'Domov z katalógu' })).toBeTruthy();
    expect(runtime.loadRemote).toHaveBeenCalledTimes(2);
  });

  it('refuses an area built against an incompatible kernel contract without loading it', async () => {
    runtime.loadRemote.mockClear();
    registerAreas(
      {
        catalog: {
          version: '2.0.0-b',
          entry: 'remotes/catalog/2.0.0-b/remoteEntry.js',
          kernel: '4.0.0',
          exposes: ['./HomePage'],
          routes: [],
        },
      },
      'http://assets.test',
    );
    await renderRoute('./ProductPage');
    expect(await screen.findByRole('heading', { name: 'Katalóg produktov sa nepodarilo načítať' })).toBeTruthy();
    expect(runtime.loadRemote).not.toHaveBeenCalled();
  });
});
