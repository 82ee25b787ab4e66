/**
 * The kernel's entries and what Module Federation shares of them. Only the
 * main entry ('@shop/shared-kernel') is a shared singleton; '/rules' and
 * '/react' are ordinary modules every part bundles. They must never reach a
 * module that holds state: in an area's build that would be a second store,
 * bus, API client or routing context. (Not even by the package's own name: the
 * federation plugin keeps an import from inside the shared package local.)
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sharedSingletons } from '../build/federation.mjs';
import pkg from '../package.json' with { type: 'json' };

const src = dirname(fileURLToPath(import.meta.url));

/** Modules with state that must be one on the page: only the singleton may import them. */
const STATEFUL = [
  'singleton/instance.ts',
  'singleton/event-bus.ts',
  'singleton/api-client.ts',
  'singleton/auth-store.ts',
  'singleton/basket-store.ts',
  'singleton/coupon-store.ts',
  'singleton/consent-store.ts',
  'singleton/device-store.ts',
  'singleton/checkout-store.ts',
  'singleton/startup.ts',
  'singleton/routing.tsx',
];

const IMPORT = /^\s*(import|export)\s+(type\s+)?(?:([\s\S]*?)\s+from\s+)?'([^']+)';/gm;

/** The modules an entry loads at run time (type-only imports are erased) and the packages they import. */
function runtimeGraph(entry: string): { modules: Set<string>; packages: Set<string> } {
  const modules = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (modules.has(file)) return;
    modules.add(file);
    for (const [, , typeOnly, clause, specifier] of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      if (typeOnly || !specifier) continue;
      const names = clause
        ?.match(/^\{([\s\S]*)\}$/)?.[1]
        ?.split(',')
        .map((name) => name.trim())
        .filter(Boolean);
      if (names && names.length > 0 && names.every((name) => name.startsWith('type '))) continue;
      if (specifier.startsWith('.')) visit(join(dirname(file), specifier));
      else packages.add(specifier);
    }
  };
  visit(join(src, entry));
  return { modules: new Set([...modules].map((file) => relative(src, file))), packages };
}

describe('entries that every part bundles', () => {
  it.each(['rules/index.ts', 'react/index.ts'])('%s reaches no module with state', (entry) => {
    const { modules } = runtimeGraph(entry);
    expect([...modules].filter((module) => STATEFUL.includes(module))).toEqual([]);
  });

  it('rules need neither React nor the singleton (the Node API uses them)', () => {
    const { packages } = runtimeGraph('rules/index.ts');
    expect([...packages]).toEqual([]);
  });

  it('the React helpers need React only, never the singleton', () => {
    const { packages } = runtimeGraph('react/index.ts');
    expect([...packages]).toEqual(['react']);
  });

  it('the singleton itself holds every stateful module', () => {
    const { modules } = runtimeGraph('singleton/index.ts');
    expect(STATEFUL.filter((module) => !modules.has(module))).toEqual([]);
  });
});

describe('what Module Federation shares', () => {
  it('the kernel by its exact name only: a subpath is not shared, so /rules and /react are bundled by each part', () => {
    const keys = Object.keys(sharedSingletons()).filter((key) => key.startsWith('@shop/'));
    expect(keys).toEqual(['@shop/shared-kernel']);
    expect(sharedSingletons()['@shop/shared-kernel']).toEqual({ singleton: true, requiredVersion: `^${pkg.version}` });
  });

  it('the provider shares the same singletons and checks no range of its own', () => {
    const provided = sharedSingletons({ provider: true });
    expect(Object.keys(provided)).toEqual(Object.keys(sharedSingletons()));
    expect(Object.values(provided).every((share) => share.singleton && share.requiredVersion === false)).toBe(true);
  });

  it('the package exports the singleton, the bundled entries, the contract types, the test helpers and the base stylesheet', () => {
    expect(Object.keys(pkg.exports)).toEqual([
      '.',
      './rules',
      './react',
      './contract',
      './schemas',
      './standalone',
      './testing',
      './federation',
      './styles/base.css',
    ]);
  });

  it('each entry is the index of the folder of its name', () => {
    const folders: Record<string, string> = { '.': 'singleton', './schemas': 'contract' };
    for (const [entry, file] of Object.entries(pkg.exports)) {
      // The build script and the stylesheet are files, not code folders.
      if (entry === './federation' || entry.endsWith('.css')) continue;
      const folder = folders[entry] ?? entry.slice(2);
      expect(file.startsWith(`./src/${folder}/`), `${entry} → ${file}`).toBe(true);
    }
  });
});
