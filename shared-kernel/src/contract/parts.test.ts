import { existsSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AREAS, isArea, isLayout, isPart, LAYOUTS, partFolder, PARTS } from './parts.ts';
import { AreaRoute, ReleasePart } from './release-types.ts';
import { CSP_PARTS } from './csp-types.ts';

describe('the parts of the shop', () => {
  it('are the areas and the shell, and every schema and list built from them agrees', () => {
    expect(PARTS).toEqual([...AREAS, 'shell']);
    expect(ReleasePart.anyOf.map((literal) => literal.const)).toEqual(['shell', ...AREAS]);
    expect(AreaRoute.properties.layout.anyOf.map((literal) => literal.const)).toEqual([...LAYOUTS]);
    expect(CSP_PARTS.slice(0, PARTS.length)).toEqual(['shell', ...AREAS]);
    expect([isArea('catalog'), isArea('shell'), isPart('shell'), isPart('ops'), isLayout('account'), isLayout('admin')]).toEqual([
      true,
      false,
      true,
      false,
      true,
      false,
    ]);
  });

  it('are the browser apps at the root that the scripts build and lint fences apart (both read the folders, plain JavaScript)', () => {
    const root = new URL('../../../', import.meta.url);
    const browserApps = readdirSync(root).filter((dir) => existsSync(new URL(`${dir}/vite.config.ts`, root)));
    expect(browserApps.sort()).toEqual(PARTS.map(partFolder).sort());
  });
});
