/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { federation } from '@module-federation/vite';
import { federationDefaults, sharedSingletons } from '@shop/shared-kernel/federation';

// The host: it provides the shared singletons and registers the areas at
// runtime from the release registry, so it names no remote here.
export default defineConfig({
  plugins: [
    react(),
    federation({
      ...federationDefaults,
      name: 'shell',
      remotes: {},
      shared: sharedSingletons(),
    }),
  ],
  build: { target: 'esnext' },
  test: { environment: 'jsdom', include: ['src/**/*.test.{ts,tsx}'] },
  server: {
    port: 5100,
    strictPort: true,
    proxy: { '/api': 'http://127.0.0.1:3000', '/builds': 'http://127.0.0.1:3000', '/media': 'http://127.0.0.1:3000' },
  },
});
