import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { initKernel, useBasketStore } from '@shop/shared-kernel';
import { readConfig } from './config.ts';
import { fetchRegistry, type Registry } from './areas/registry.ts';
import { registerAreas } from './areas/area-loader.ts';
import { ShopRoutes } from './app/router.tsx';
import { setBootRevision } from './app/new-build.ts';
import { setConsentDefaults } from './app/analytics.ts';
import { reloadOnce } from './app/reload-guard.ts';
import { installLinkPreloading } from './areas/preload.ts';
import './styles.css';

async function boot() {
  const config = readConfig();
  // Consent Mode v2: everything denied until the shopper decides.
  setConsentDefaults();
  // A shell chunk that vanished after a deploy: one guarded reload.
  window.addEventListener('vite:preloadError', () => void reloadOnce());
  // The basket is read synchronously so the checkout guard sees it on a deep link.
  useBasketStore.getState().hydrate();
  const registry: Registry = config.registry ?? (await fetchRegistry().catch(() => ({ revision: 'unavailable', areas: {} })));
  registerAreas(registry, config.assetOrigin);
  setBootRevision(registry.revision);
  installLinkPreloading();
  void initKernel();
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <BrowserRouter>
        <ShopRoutes config={config} />
      </BrowserRouter>
    </StrictMode>,
  );
}

void boot();
