/**
 * The monolith build for the benchmark: the same shell and area code built as
 * one ordinary Vite app, without federation (`npm run bench` compares it with
 * the composed shop). The shell's module source is swapped for direct imports.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
// By path: Vite's config loader leaves workspace packages (TypeScript sources) to Node, which cannot load them.
import { AREAS, partFolder, type AreaName } from '../../../shared-kernel/src/contract/parts.ts';

const repo = resolve(import.meta.dirname, '..', '..', '..');
const VIRTUAL = 'virtual:monolith-areas';

/** An area's exposed modules, read from its vite.config.ts `exposes` map (the area's public face). */
function exposesOf(area: AreaName): Record<string, string> {
  const config = readFileSync(join(repo, partFolder(area), 'vite.config.ts'), 'utf8');
  const block = /export const exposes = \{([\s\S]*?)\};/.exec(config)?.[1] ?? '';
  return Object.fromEntries([...block.matchAll(/'(\.\/\w+)':\s*'([^']+)'/g)].map((match) => [match[1]!, match[2]!]));
}

function monolithAreas(): Plugin {
  const shellSource = join(repo, 'shell', 'src', 'areas', 'module-source.ts');
  return {
    name: 'monolith-areas',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (source === VIRTUAL) return `\0${VIRTUAL}`;
      if (importer && source.endsWith('module-source.ts')) {
        const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
        if (resolved?.id === shellSource) return join(import.meta.dirname, 'module-source.ts');
      }
      return null;
    },
    load(id) {
      if (id !== `\0${VIRTUAL}`) return null;
      const entries = AREAS.flatMap((area) =>
        Object.entries(exposesOf(area)).map(
          ([name, file]) =>
            `  ${JSON.stringify(`${area}/${name.slice(2)}`)}: () => import(${JSON.stringify(join(repo, partFolder(area), file))}),`,
        ),
      );
      return `export const areaModules = {\n${entries.join('\n')}\n};\n`;
    },
    generateBundle() {
      // The release tooling deploys this build as a shell; it needs no area modules.
      const kernel = (JSON.parse(readFileSync(join(repo, 'shared-kernel', 'package.json'), 'utf8')) as { version: string }).version;
      this.emitFile({ type: 'asset', fileName: 'routes.json', source: JSON.stringify({ kernel, requires: {} }) });
    },
  };
}

export default defineConfig({
  root: join(repo, 'shell'),
  plugins: [monolithAreas(), react()],
  build: { target: 'esnext', outDir: join(import.meta.dirname, 'dist'), emptyOutDir: true },
  logLevel: 'warn',
});
