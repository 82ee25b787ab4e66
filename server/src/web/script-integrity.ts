/**
 * The integrity of every script a page may run, from the signed manifests of the versions it
 * serves: an import map whose `integrity` section names each JavaScript file of the shell and of
 * every area version the page can load (in force, canary, preview) with its SHA-384. The browser
 * then refuses any module (entry, remote entry, chunk, shared singleton, preloaded or imported)
 * whose bytes differ, and the area is contained as for any failed load.
 *
 * A local override (one browser's, release/src/local-override.ts) has no signed manifest: its scripts
 * are named with the digests its link recorded when it was made, at the developer's loopback origin,
 * so a file changed since does not run either.
 *
 * A version whose manifest is missing, altered or signed by a key the shop does not accept is not
 * served: an area is left out of the page's registry (its pages show the contained-area message),
 * a shell cannot be (the page answers 503). Either is reported to `onRefused`.
 */
import {
  type ReleaseIntegrity,
  partPrefix,
  ReleaseRefused,
  type AreaName,
  type AreaRelease,
  type PublicRegistry,
  integrityOf,
  isBrowserScript,
  localFilePrefix,
  type LocalBuild,
  type ReleaseManifest,
} from '@shop/release';
import { scriptHash } from '../infra/http/security-headers.ts';

export type RefusedVersion = { part: string; version: string; reason: string };

/** The area a browser's local override replaces: its version and the build its link recorded. */
export type LocalArea = { area: AreaName; version: string; build: LocalBuild };

export type PageScripts = {
  /** The registry the page is served with: only versions whose signed manifests verify. */
  registry: PublicRegistry;
  /** `<script type="importmap">…</script>`, to come before every module script of the page. */
  importMap: string;
  /** The import map's CSP source expression (it is an inline script). */
  importMapHash: string;
  refused: RefusedVersion[];
};

/** Thrown when the shell itself has no valid signed manifest: nothing of the page can be trusted. */
export class ShellNotTrusted extends Error {}

/** Import maps remembered (by the versions they name); they change only with a release. */
const LIMIT = 50;

export function pageScripts(options: {
  integrity: ReleaseIntegrity;
  assetOrigin: string;
  /** The shop's own origin (PUBLIC_URL's), which serves the same released files when the asset origin fails. */
  shopOrigin?: string;
  onRefused?: (refused: RefusedVersion) => void;
}) {
  const { integrity } = options;
  const fallback = options.shopOrigin !== undefined && new URL(options.shopOrigin).origin !== new URL(options.assetOrigin).origin;
  const built = new Map<string, { at: number; scripts: Promise<PageScripts> }>();

  async function areaManifest(area: AreaName, release: AreaRelease): Promise<ReleaseManifest> {
    const manifest = await integrity.manifest(area, release.version);
    // The registry names the entry; it must be a file of the signed version, not anything else.
    const file = release.entry.startsWith(`${partPrefix(area, release.version)}/`)
      ? release.entry.slice(partPrefix(area, release.version).length + 1)
      : null;
    if (!file || !manifest.files[file])
      throw new ReleaseRefused(
        'bad_signature',
        `the registry's entry ${release.entry} is not a file of ${area} ${release.version}'s signed manifest`,
      );
    return manifest;
  }

  async function build(shellVersion: string, served: PublicRegistry, local: LocalArea | null): Promise<PageScripts> {
    const entries: [string, string][] = [];
    const refused: RefusedVersion[] = [];
    const add = (base: string, manifest: ReleaseManifest) => {
      for (const [file, digest] of Object.entries(manifest.files))
        if (isBrowserScript(file)) entries.push([`${base}${file}`, integrityOf(digest)]);
    };
    try {
      add('/', await integrity.manifest('shell', shellVersion));
    } catch (error) {
      throw new ShellNotTrusted(`shell ${shellVersion}: ${(error as Error).message}`);
    }
    const keep = async (area: AreaName, release: AreaRelease) => {
      if (local?.area === area && local.version === release.version) {
        const base = `${local.build.origin}${localFilePrefix(area, local.version)}`;
        for (const [file, digest] of Object.entries(local.build.files))
          if (isBrowserScript(file)) entries.push([`${base}${file}`, integrityOf(digest)]);
        return true;
      }
      try {
        const manifest = await areaManifest(area, release);
        add(`${options.assetOrigin}/${partPrefix(area, release.version)}/`, manifest);
        // The shell's fallback loads the same files from the shop's own origin: named with the same digests.
        if (fallback) add(`/${partPrefix(area, release.version)}/`, manifest);
        return true;
      } catch (error) {
        if (!(error instanceof ReleaseRefused)) throw error;
        refused.push({ part: area, version: release.version, reason: error.message });
        return false;
      }
    };
    const areas: PublicRegistry['areas'] = {};
    for (const [area, release] of Object.entries(served.areas) as [AreaName, AreaRelease][])
      if (await keep(area, release)) areas[area] = release;
    const canaries: PublicRegistry['canaries'] = {};
    for (const [area, canary] of Object.entries(served.canaries ?? {}) as [
      AreaName,
      PublicRegistry['canaries'][AreaName] & AreaRelease,
    ][]) {
      if (areas[area] && (await keep(area, canary))) canaries[area] = canary;
    }
    entries.sort(([a], [b]) => (a < b ? -1 : 1));
    const text = JSON.stringify({ integrity: Object.fromEntries(entries) }).replace(/</g, '\\u003c');
    for (const item of refused) options.onRefused?.(item);
    return {
      registry: { ...served, areas, canaries },
      importMap: `<script type="importmap">${text}</script>`,
      importMapHash: scriptHash(text),
      refused,
    };
  }

  return {
    /**
     * The page's scripts for a shell version and the registry it would be served with (`local`: the
     * area this browser's local override replaces, its entry already in `served`).
     */
    forPage(shellVersion: string, served: PublicRegistry, local: LocalArea | null = null): Promise<PageScripts> {
      // One browser's page: built for it alone, never remembered for another.
      if (local)
        return build(shellVersion, served, local).then((page) => ({ ...page, registry: { ...page.registry, revision: served.revision } }));
      const versions = [
        `shell@${shellVersion}`,
        ...Object.entries(served.areas).map(([area, release]) => `${area}@${release.version}@${release.entry}`),
        ...Object.entries(served.canaries ?? {}).map(([area, release]) => `canary:${area}@${release.version}@${release.entry}`),
      ].join('|');
      const now = Date.now();
      const known = built.get(versions);
      // Rebuilt at most every few seconds: a signature that stopped verifying (a revoked key) shows soon.
      let scripts = known && now - known.at < 10_000 ? known.scripts : null;
      if (!scripts) {
        scripts = build(shellVersion, served, null);
        built.delete(versions);
        built.set(versions, { at: now, scripts });
        scripts.catch(() => built.delete(versions));
        while (built.size > LIMIT) built.delete(built.keys().next().value as string);
      }
      // Remembered by versions, served with the revision in force: a move that changes no version a
      // page loads (a preview, a pin) still changes the revision, and a page with the one before it
      // would take the registry events' next revision for a new build (a full page load on the next click).
      return scripts.then((page) => ({ ...page, registry: { ...page.registry, revision: served.revision } }));
    },
  };
}
