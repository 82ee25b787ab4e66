/// <reference types="vitest/config" />
// The operator console: a small app of its own, served by the server on the operator origin at /ops
// (server/src/web/operator-console.ts). No federation, no shell, no area: one entry script and its
// chunks from this origin, no inline script (the origin's policy admits `script-src 'self'` only).
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  base: '/ops/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    // The polyfill would be code of its own for browsers the operators do not use.
    modulePreload: { polyfill: false },
    // Never a data: URL for a small asset: the policy admits images from this origin and the QR code's data: only.
    assetsInlineLimit: 0,
    emptyOutDir: true,
  },
  server: {
    port: 5109,
    // The console's calls go to a running shop's operator origin (npm start: PORT+3).
    proxy: { '/api': 'http://localhost:3003' },
  },
  test: { environment: 'node' },
});
