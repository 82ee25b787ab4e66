/**
 * Folders found from where this code runs, the same from the sources (server/src/…, under tsx or
 * vitest) and from the build (server/dist/…, where this module is bundled into each entry point):
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

/** The API package (`server/`). */
export const apiDir = packageFolder(import.meta.dirname);
/** The repository (the workspace root, where server/ sits beside shell/ and the areas). */
export const repoRoot = dirname(apiDir);
