import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { federation } from '@module-federation/vite';
import { areaViteConfig } from '@shop/shared-kernel/federation';

// The content area's public face: one exposed module per page.
export const exposes = {
  './StaticPage': './src/pages/static-page.tsx',
};

export default defineConfig(areaViteConfig({ area: 'content', exposes, devPort: 5104, react, federation }));
