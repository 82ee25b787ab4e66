/**
 * Where the renderer's two files are: built with the server into dist/sandbox/ (build.mjs), or,
 * when the server runs from its sources (tests, tsx), built here once into node_modules/.cache
 * under the digest of what was built (a folder per build, written aside and renamed, so processes
 * starting at once never read half a file). Also isolated-vm's entry, which the renderer loads.
 */
import { existsSync, mkdirSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { apiDir } from '../../../infra/paths.ts';
import type { RendererFiles } from './renderer-pool.ts';

const fromSources = import.meta.url.endsWith('.ts');

type SandboxBuild = {
  buildSandbox(options: { outdir: string; write: false }): Promise<{ runtime: string; renderer: string }>;
  digestOf(texts: { runtime: string; renderer: string }): string;
};

let built: Promise<string> | null = null;

/** The folder holding renderer.cjs and runtime.js. */
function sandboxFolder(): Promise<string> {
  if (!fromSources) return Promise.resolve(join(apiDir, 'dist', 'sandbox'));
  return (built ??= (async () => {
    const script = join(apiDir, 'build-sandbox.mjs');
    const { buildSandbox, digestOf } = (await import(/* @vite-ignore */ script)) as SandboxBuild;
    const texts = await buildSandbox({ outdir: join(apiDir, 'node_modules', '.cache', 'sandbox'), write: false });
    const folder = join(apiDir, 'node_modules', '.cache', 'sandbox', digestOf(texts));
    if (!existsSync(join(folder, 'runtime.js'))) {
      const aside = `${folder}.${process.pid}.tmp`;
      mkdirSync(aside, { recursive: true });
      writeFileSync(join(aside, 'renderer.cjs'), texts.renderer);
      writeFileSync(join(aside, 'runtime.js'), texts.runtime);
      try {
        renameSync(aside, folder);
      } catch {
        // Another process put the same build there first.
        rmSync(aside, { recursive: true, force: true });
      }
    }
    return folder;
  })());
}

export async function rendererFiles(): Promise<RendererFiles> {
  const folder = realpathSync(await sandboxFolder());
  const isolatedVm = realpathSync(createRequire(join(apiDir, 'package.json')).resolve('isolated-vm'));
  const renderer = join(folder, 'renderer.cjs');
  if (!existsSync(renderer)) throw new Error(`${renderer} is missing: build the server (npm run build)`);
  return { renderer, runtime: join(folder, 'runtime.js'), isolatedVm, readable: [folder, dirname(isolatedVm)] };
}
