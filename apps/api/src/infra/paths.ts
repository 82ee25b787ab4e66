/**
 * Folders found from where this code runs, the same from the sources (api/src/…, under tsx or
 * vitest) and from the build (api/dist/…, where this module is bundled into each entry point):
 * a fixed number of `..` from `import.meta.dirname` would differ between the two.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The nearest folder at or above `from` holding a package.json. */
function packageFolder(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`No package.json above ${from}`);
  }
}

/** The API package (`apps/api/`). */
export const apiDir = packageFolder(import.meta.dirname);
/** The repository (the workspace root: apps/, packages/, tools/). */
export const repoRoot = dirname(dirname(apiDir));
