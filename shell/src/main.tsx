import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { initKernel, useBasketStore } from '@shop/shared-kernel';
import { readConfig } from './config.ts';
import { fetchRegistry, type Registry } from './areas/registry.ts';
import { registerAreas } from './areas/area-loader.ts';
import { createShopRouter } from './app/router.tsx';
import './styles.css';

async function boot() {
  const config = readConfig();
  // The basket is read synchronously so the checkout guard sees it on a deep link.
  useBasketStore.getState().hydrate();
  const registry: Registry = await fetchRegistry().catch(() => ({ revision: 'unavailable', areas: {} }));
  registerAreas(registry, config.assetOrigin);
  void initKernel();
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <RouterProvider router={createShopRouter()} />
    </StrictMode>,
  );
}

void boot();
