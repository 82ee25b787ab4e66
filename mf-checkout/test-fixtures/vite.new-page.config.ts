// The checkout area with one more page (test-fixtures/gift-cards-page.tsx) and its route:
// what an area team ships to add a page, built exactly like the area itself.
import { fileURLToPath } from 'node:url';
import { build, defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { federation } from '@module-federation/vite';
import { areaViteConfig } from '@shop/shared-kernel/federation';
import { exposes, routes } from '../vite.config.ts';

export default defineConfig(
  areaViteConfig({
    area: 'checkout',
    exposes: { ...exposes, './GiftCardsPage': './test-fixtures/gift-cards-page.tsx' },
    routes: [...routes, { name: 'gift-cards', path: '/darcekove-poukazky', module: './GiftCardsPage', layout: 'default' }],
    devPort: 5102,
    react,
    federation,
    viteBuild: build,
    root: fileURLToPath(new URL('..', import.meta.url)),
  }),
);
