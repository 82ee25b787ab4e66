/**
 * Publishing a build: copy it to its immutable, versioned path on the
 * origin (version = package version + content hash), pre-compress it, and
 * move the part's pointer in the registry.
 */
import { createHash } from 'node:crypto';
import { cp, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import {
  appendHistory,
  emptyRegistry,
  readRegistry,
  writeRegistry,
  type AreaName,
  type PartName,
  type Registry,
} from './registry.ts';

const COMPRESSIBLE = /\.(js|mjs|css|json|html|svg|txt)$/;

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && !/\.(br|gz)$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

/** Content hash of a build directory: the same files give the same version. */
export async function hashBuild(dir: string): Promise<string> {
  const hash = createHash('sha256');
  for (const file of await listFiles(dir)) {
    hash.update(relative(dir, file));
    hash.update('\0');
    hash.update(await readFile(file));
  }
  return hash.digest('hex').slice(0, 10);
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

async function precompress(dir: string): Promise<void> {
  for (const file of await listFiles(dir)) {
    if (!COMPRESSIBLE.test(file)) continue;
    const body = await readFile(file);
    if (body.length < 256) continue;
    await writeFile(`${file}.br`, brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
    await writeFile(`${file}.gz`, gzipSync(body, { level: 9 }));
  }
}

/** Copies a build to `<prefix>/<part>/<version>/` unless that version is already there. */
async function upload(originDir: string, prefix: string, part: PartName, distDir: string, packageVersion: string) {
  const version = `${packageVersion}-${await hashBuild(distDir)}`;
  const dir = join(prefix, part, version);
  const target = join(originDir, dir);
  if (!(await exists(target))) {
    await cp(distDir, target, { recursive: true });
    await precompress(target);
  }
  return { version, dir };
}

export type AreaMeta = { area: AreaName; kernel: string; exposes: string[]; entry: string };

export async function readAreaMeta(distDir: string): Promise<AreaMeta> {
  return JSON.parse(await readFile(join(distDir, 'area.json'), 'utf8')) as AreaMeta;
}

function nextRevision(registry: Registry): string {
  return createHash('sha256').update(JSON.stringify(registry.areas) + JSON.stringify(registry.shell)).digest('hex').slice(0, 12);
}

async function movePointer(
  originDir: string,
  part: PartName,
  change: (registry: Registry) => string | null,
  who: string,
  to: string,
) {
  const registry = (await readRegistry(originDir)) ?? emptyRegistry();
  const from = change(registry);
  if (from === to) return { from, to, changed: false };
  registry.updatedAt = new Date().toISOString();
  registry.revision = nextRevision(registry);
  await writeRegistry(originDir, registry);
  await appendHistory(originDir, { at: registry.updatedAt, who, part, action: 'deploy', from, to });
  return { from, to, changed: true };
}

export async function publishArea(options: { originDir: string; distDir: string; packageVersion: string; who: string }) {
  const meta = await readAreaMeta(options.distDir);
  const { version, dir } = await upload(options.originDir, 'remotes', meta.area, options.distDir, options.packageVersion);
  const move = await movePointer(
    options.originDir,
    meta.area,
    (registry) => {
      const from = registry.areas[meta.area]?.version ?? null;
      registry.areas[meta.area] = { version, entry: `${dir}/${meta.entry}`, kernel: meta.kernel, exposes: meta.exposes };
      return from;
    },
    options.who,
    version,
  );
  return { part: meta.area, version, ...move };
}

export async function publishShell(options: {
  originDir: string;
  distDir: string;
  packageVersion: string;
  kernel: string;
  who: string;
}) {
  const { version, dir } = await upload(options.originDir, 'shells', 'shell', options.distDir, options.packageVersion);
  const move = await movePointer(
    options.originDir,
    'shell',
    (registry) => {
      const from = registry.shell?.version ?? null;
      registry.shell = { version, dir, kernel: options.kernel };
      return from;
    },
    options.who,
    version,
  );
  return { part: 'shell' as const, version, ...move };
}
