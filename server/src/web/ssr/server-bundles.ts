/**
 * The server builds the parts release beside their browser builds (`server/entry.cjs`, see the
 * kernel's build/federation.mjs). Each is one CommonJS file whose only imports are the packages
 * the shop shares (React, the kernel, zustand, mitt): they get the renderer's single copies, so
 * the shell, the area and the renderer render on one React and one kernel.
 *
 * A build is read from the origin by its versioned path, so a deploy, rollback, pin or canary
 * takes effect on the next render without a restart: a new version is a new file. Its bytes are
 * checked against its signed manifest before they go anywhere (`verifiedServerBuild`): to the
 * sandbox's renderers (sandbox/), or, for the benchmark's comparison only, evaluated in this
 * process (`evaluateServerBundle`, in-process-engine.ts: `vm` is no security boundary).
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { compileFunction } from 'node:vm';
import * as kernel from '@shop/shared-kernel';
import * as zustand from 'zustand';
import mitt from 'mitt';

const nodeRequire = createRequire(import.meta.url);

/** The server's single copies of what the parts share (the browser shares the same packages). */
const SHARED: Record<string, () => unknown> = {
  react: () => nodeRequire('react'),
  'react/jsx-runtime': () => nodeRequire('react/jsx-runtime'),
  'react-dom': () => nodeRequire('react-dom'),
  'react-dom/server': () => nodeRequire('react-dom/server'),
  zustand: () => zustand,
  mitt: () => ({ default: mitt, __esModule: true }),
  '@shop/shared-kernel': () => kernel,
};

function sharedRequire(file: string) {
  return (specifier: string): unknown => {
    const shared = SHARED[specifier];
    if (!shared)
      throw new Error(`${file} imports ${specifier}, which the server does not provide (only ${Object.keys(SHARED).join(', ')})`);
    return shared();
  };
}

/** A server build's code, read and checked: `expectedSha384` is the digest its signed manifest lists; no other bytes are run. */
export async function verifiedServerBuild(file: string, expectedSha384?: string): Promise<string> {
  const bytes = await readFile(file);
  if (expectedSha384 !== undefined && createHash('sha384').update(bytes).digest('base64') !== expectedSha384) {
    throw new Error(`${file} differs from its signed release manifest: not run`);
  }
  return bytes.toString('utf8');
}

/** Evaluates one server build in this process (the benchmark's in-process comparison only): a fresh module instance each call. */
export async function evaluateServerBundle<T>(file: string, expectedSha384?: string): Promise<T> {
  const code = await verifiedServerBuild(file, expectedSha384);
  const run = compileFunction(code, ['exports', 'require', 'module', '__filename', '__dirname'], { filename: file });
  const module = { exports: {} as Record<string, unknown> };
  run(module.exports, sharedRequire(file), module, file, file.replace(/\/[^/]*$/, ''));
  return module.exports as T;
}

/**
 * A small cache of evaluated bundles by key, oldest dropped first: versions kept on the origin
 * are few, and a dropped one is evaluated again when asked for.
 */
export class BundleCache<T> {
  private readonly entries = new Map<string, Promise<T>>();

  constructor(private readonly limit: number) {}

  get(key: string, load: () => Promise<T>): Promise<T> {
    const cached = this.entries.get(key);
    if (cached) {
      this.entries.delete(key);
      this.entries.set(key, cached);
      return cached;
    }
    const loading = load();
    this.entries.set(key, loading);
    loading.catch(() => this.entries.delete(key));
    while (this.entries.size > this.limit) this.entries.delete(this.entries.keys().next().value as string);
    return loading;
  }
}
