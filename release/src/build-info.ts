/**
 * What a build says about itself, read without executing it: an area's
 * area.json and mf-manifest.json, or the shell's routes.json.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import { ReleaseRefused } from './refusal.ts';
import type { AreaName, PartName, RouteSpec } from './registry.ts';
import { parseRouteSpecs } from './route-specs.ts';

export type AreaBuild = {
  kind: 'area';
  area: AreaName;
  kernel: string;
  /** The React version the build was made with (area.json "react"); null: built before builds recorded it. */
  react: string | null;
  /** Exposed modules, './Name'. */
  exposes: string[];
  /** The pages the area ships (area.json "routes"). */
  routes: RouteSpec[];
  entry: string;
  /** Compressed (brotli) JavaScript a shopper loads from this area: its entry and every exposed page. */
  jsBytes: number;
};

export type ShellBuild = {
  kind: 'shell';
  kernel: string;
  /** The React version the shell provides to every area (routes.json "react"); null: built before builds recorded it. */
  react: string | null;
  /** Modules the shell itself needs from each area (areas own their routes; usually none). */
  requires: Partial<Record<AreaName, string[]>>;
};

export type PartBuild = AreaBuild | ShellBuild;

type Manifest = {
  name?: string;
  metaData?: { remoteEntry?: { name?: string } };
  exposes?: { name?: string; assets?: { js?: { sync?: string[] } } }[];
};

async function readJson<T>(file: string, part: PartName): Promise<T> {
  const text = await readFile(file, 'utf8').catch(() => null);
  if (text === null) throw new ReleaseRefused('broken_build', `The ${part} build has no ${file.split('/').pop()} (${file}).`);
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new ReleaseRefused('broken_build', `The ${part} build's ${file.split('/').pop()} is not valid JSON.`);
  }
}

async function isFile(path: string) {
  return stat(path).then(
    (s) => s.isFile(),
    () => false,
  );
}

/** A version a build records (e.g. its React): absent is null (an older build); anything but a short version text is a broken build. */
export function recordedVersion(value: unknown, part: PartName): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || !/^[0-9A-Za-z.+-]{1,40}$/.test(value)) {
    throw new ReleaseRefused('broken_build', `The ${part} build records a React version that is not a version.`);
  }
  return value;
}

export const normalizeModule = (name: string) => (name.startsWith('./') ? name : `./${name}`);

async function readAreaBuild(dir: string, part: AreaName): Promise<AreaBuild> {
  const meta = await readJson<{ area?: string; kernel?: string; react?: unknown; exposes?: string[]; entry?: string; routes?: unknown }>(
    join(dir, 'area.json'),
    part,
  );
  const manifest = await readJson<Manifest>(join(dir, 'mf-manifest.json'), part);
  if (meta.area !== part || manifest.name !== part) {
    throw new ReleaseRefused('broken_build', `This build is of "${meta.area ?? manifest.name}", not of ${part}.`);
  }
  if (!meta.kernel || !Array.isArray(manifest.exposes) || manifest.exposes.length === 0) {
    throw new ReleaseRefused('broken_build', `The ${part} manifest names no kernel contract or no exposed module.`);
  }
  const entry = manifest.metaData?.remoteEntry?.name ?? meta.entry ?? 'remoteEntry.js';
  if (!(await isFile(join(dir, entry)))) throw new ReleaseRefused('broken_build', `The ${part} build has no ${entry}.`);
  const files = new Set<string>([entry]);
  for (const expose of manifest.exposes) {
    if (!expose.name) throw new ReleaseRefused('broken_build', `The ${part} manifest has an exposed module without a name.`);
    for (const file of expose.assets?.js?.sync ?? []) files.add(file);
  }
  let jsBytes = 0;
  for (const file of files) {
    const body = await readFile(join(dir, file)).catch(() => null);
    if (body === null) throw new ReleaseRefused('broken_build', `The ${part} manifest names ${file}, which the build does not contain.`);
    jsBytes += brotliCompressSync(body).length;
  }
  const exposes = manifest.exposes.map((expose) => normalizeModule(expose.name!));
  return {
    kind: 'area',
    area: part,
    kernel: meta.kernel,
    react: recordedVersion(meta.react, part),
    exposes,
    routes: parseRouteSpecs(part, meta.routes, exposes),
    entry,
    jsBytes,
  };
}

async function readShellBuild(dir: string): Promise<ShellBuild> {
  if (!(await isFile(join(dir, 'index.html')))) throw new ReleaseRefused('broken_build', 'The shell build has no index.html.');
  const routes = await readJson<{ kernel?: string; react?: unknown; requires?: ShellBuild['requires'] }>(join(dir, 'routes.json'), 'shell');
  if (!routes.kernel || typeof routes.requires !== 'object' || routes.requires === null) {
    throw new ReleaseRefused('broken_build', 'The shell build’s routes.json names no kernel or no route requirements.');
  }
  return { kind: 'shell', kernel: routes.kernel, react: recordedVersion(routes.react, 'shell'), requires: routes.requires };
}

export function readBuild(dir: string, part: PartName): Promise<PartBuild> {
  return part === 'shell' ? readShellBuild(dir) : readAreaBuild(dir, part);
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && !/\.(br|gz)$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

/** Content hash of a build: the same files give the same version. */
export async function hashBuild(dir: string): Promise<string> {
  const hash = createHash('sha256');
  for (const file of await listFiles(dir)) {
    hash
      .update(relative(dir, file))
      .update('\0')
      .update(await readFile(file));
  }
  return hash.digest('hex').slice(0, 10);
}

export { listFiles };
