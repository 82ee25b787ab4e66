/**
 * The inventory of every script a shop page can run (PCI DSS 6.4.3), generated from the release
 * registry, never written by hand: for each part in force (and each canary, and each version a preview
 * link that lasts loads in its one browser), every JavaScript file of
 * its released version with its SHA-384 and size, who released that version and when, and the pages
 * (routes) it renders; beside them the third-party scripts the policy admits and why.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { releasedFolder } from '../../infra/storage/released-folder.ts';
import {
  history,
  AREAS,
  readBuild,
  type AreaName,
  originBook,
  type RegistryBook,
  type HistoryEntry,
  type PartName,
  type ReleaseIntegrity,
  integrityOf,
  isBrowserScript,
  type ReleaseStorage,
} from '@shop/release';
import type { ReleaseKeys } from './release-keys.repository.ts';

export type InventoryFile = { file: string; sha384: string; bytes: number };
export type InventoryPart = {
  part: PartName;
  version: string;
  state: 'stable' | 'canary' | 'preview';
  /** The pages it renders (route names); the shell runs on every page. */
  pages: string[];
  releasedBy: string | null;
  releasedAt: string | null;
  signedBy: string | null;
  signedAt: string | null;
  files: InventoryFile[];
};
export type ThirdPartyScript = { url: string; loaded: string; why: string };
export type ScriptInventory = { parts: InventoryPart[]; thirdParty: ThirdPartyScript[]; policy: string | null };

/** Released folders never change: their files' hashes are computed once per process. */
const hashed = new Map<string, Promise<InventoryFile[]>>();

async function scriptsOf(dir: string): Promise<InventoryFile[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries.filter(
    (e) => e.isFile() && /\.m?js$/.test(e.name) && !join(e.parentPath, e.name).includes(`${join(dir, 'server')}`),
  );
  const listed = await Promise.all(
    files.map(async (e) => {
      const path = join(e.parentPath, e.name);
      const bytes = await readFile(path);
      return { file: relative(dir, path), sha384: `sha384-${createHash('sha384').update(bytes).digest('base64')}`, bytes: bytes.length };
    }),
  );
  return listed.sort((a, b) => (a.file < b.file ? -1 : 1));
}

const filesOf = (storage: ReleaseStorage, key: string) => {
  let files = hashed.get(key);
  if (!files) {
    files = releasedFolder(storage, key).then(scriptsOf);
    // A folder not downloaded yet is asked for again next time.
    files.catch(() => hashed.delete(key));
    hashed.set(key, files);
  }
  return files;
};

/** The last move that put this version of the part in force. */
function releasedBy(moves: HistoryEntry[], part: PartName, version: string) {
  const move = moves.findLast((m) => m.part === part && m.to === version && m.action !== 'pin' && m.action !== 'unpin');
  return { releasedBy: move?.who ?? null, releasedAt: move?.at ?? null };
}

type Signed = { signedBy: string | null; signedAt: string | null; files: InventoryFile[] };

export async function scriptInventory(
  storage: ReleaseStorage,
  options: {
    tagManagerId: string | null;
    /** The Content-Security-Policy of a shell version's pages, from its index.html (the page host's rule, passed in by the composition root). */
    shellPolicy: (indexHtml: string) => string;
    integrity?: ReleaseIntegrity | null;
    keys?: ReleaseKeys | null;
    book?: RegistryBook;
    /** The versions preview links that last load (each in one browser). */
    previewed?: () => Promise<{ area: string; version: string }[]>;
  },
): Promise<ScriptInventory> {
  const book = options.book ?? originBook(storage);
  const [registry, moves] = await Promise.all([book.read(), history(storage, undefined, book)]);
  const owners = new Map((await (options.keys?.trusted() ?? Promise.resolve([]))).map((key) => [key.keyId, key.owner]));
  /** The version's scripts as its signed manifest lists them (what browsers check); unsigned: as the origin holds them now. */
  const signed = async (part: PartName, version: string, key: string): Promise<Signed> => {
    const manifest = options.integrity ? await options.integrity.manifest(part, version).catch(() => null) : null;
    if (!manifest) return { signedBy: null, signedAt: null, files: await filesOf(storage, key) };
    const files = Object.entries(manifest.files)
      .filter(([file]) => isBrowserScript(file))
      .map(([file, digest]) => ({ file, sha384: integrityOf(digest), bytes: digest.size }));
    return { signedBy: owners.get(manifest.keyId) ?? manifest.keyId, signedAt: manifest.signedAt, files };
  };
  const parts: Promise<InventoryPart>[] = [];
  if (registry.shell) {
    const { version, dir } = registry.shell;
    parts.push(
      signed('shell', version, dir).then((files) => ({
        part: 'shell',
        version,
        state: 'stable',
        pages: ['*'],
        ...releasedBy(moves, 'shell', version),
        ...files,
      })),
    );
  }
  for (const area of AREAS) {
    const releases = [
      { release: registry.areas[area], state: 'stable' as const },
      { release: registry.canaries?.[area], state: 'canary' as const },
    ];
    for (const { release, state } of releases) {
      if (!release) continue;
      const key = `remotes/${area}/${release.version}`;
      parts.push(
        signed(area, release.version, key).then((files) => ({
          part: area,
          version: release.version,
          state,
          pages: release.routes.map((r) => r.name),
          ...releasedBy(moves, area, release.version),
          ...files,
        })),
      );
    }
  }
  const listed = new Set(
    AREAS.flatMap((area) => [registry.areas[area]?.version, registry.canaries?.[area]?.version].map((v) => `${area}/${v}`)),
  );
  // A previewed version whose build is gone from the origin (pruned) or unreadable is served to nobody,
  // its preview included (web/preview-host.ts): it runs no script, so it is not listed.
  const previewedParts: Promise<InventoryPart | null>[] = [];
  for (const { area, version } of await (options.previewed?.() ?? Promise.resolve([]))) {
    const name = area as AreaName;
    if (!AREAS.includes(name) || listed.has(`${area}/${version}`)) continue;
    listed.add(`${area}/${version}`);
    const key = `remotes/${area}/${version}`;
    previewedParts.push(
      (async () => {
        if (!(await storage.exists(key))) return null;
        const build = await releasedFolder(storage, key).then((dir) => readBuild(dir, name));
        return {
          part: name,
          version,
          state: 'preview' as const,
          pages: build.kind === 'area' ? build.routes.map((r) => r.name) : [],
          ...releasedBy(moves, name, version),
          ...(await signed(name, version, key)),
        };
      })().catch(() => null),
    );
  }
  const thirdParty: ThirdPartyScript[] = options.tagManagerId
    ? [
        {
          url: `https://www.googletagmanager.com/gtm.js?id=${options.tagManagerId}`,
          loaded: 'len po súhlase s analytickými cookies, nikdy pri generovaní stránky ani v PDF',
          why: 'Google Tag Manager: meranie návštevnosti a kampaní, ktoré marketing nastavuje bez vydania obchodu',
        },
      ]
    : [];
  const policy = registry.shell
    ? options.shellPolicy(await readFile(join(await releasedFolder(storage, registry.shell.dir), 'index.html'), 'utf8'))
    : null;
  const previews = (await Promise.all(previewedParts)).filter((part): part is InventoryPart => part !== null);
  return { parts: [...(await Promise.all(parts)), ...previews], thirdParty, policy };
}
