/**
 * The registry a browser with a valid preview cookie is served: the previewed
 * version of one area in place of the one in force (and of its canary), read
 * from the build on the origin. The revision stays the one in force, so the
 * tab does not take the preview for a new release.
 */
import { readBuild, verifyPreview, type Preview, type PublicRegistry, partPrefix, type ReleaseStorage } from '@shop/release';

type Release = PublicRegistry['areas'][keyof PublicRegistry['areas']] & object;
/** Released builds never change: what one says about itself is read once (a few at most). */
const releases = new Map<string, Promise<Release | null>>();

function releaseOf(storage: ReleaseStorage, preview: Preview): Promise<Release | null> {
  const prefix = partPrefix(preview.area, preview.version);
  const key = `${storage.localPath(prefix)}`;
  let cached = releases.get(key);
  if (!cached) {
    // An object store downloads the folder into its cache first (once: a released folder never changes).
    cached = storage
      .materialize(prefix)
      .then((dir) => readBuild(dir, preview.area))
      .then(
        (build) =>
          build.kind === 'area'
            ? {
                version: preview.version,
                entry: `${prefix}/${build.entry}`,
                kernel: build.kernel,
                exposes: build.exposes,
                routes: build.routes,
              }
            : null,
        () => null,
      );
    if (releases.size >= 20) releases.delete(releases.keys().next().value!);
    releases.set(key, cached);
  }
  return cached;
}

export async function previewedRegistry(
  storage: ReleaseStorage,
  previewSecret: string,
  token: string,
  registry: PublicRegistry,
): Promise<{ preview: Preview; registry: PublicRegistry } | null> {
  const preview = verifyPreview(previewSecret, token);
  if (!preview) return null;
  // Pruned since the link was made: the preview ends quietly.
  if (!(await storage.exists(partPrefix(preview.area, preview.version)))) return null;
  const release = await releaseOf(storage, preview);
  if (!release) return null;
  const canaries = { ...registry.canaries };
  delete canaries[preview.area];
  return { preview, registry: { ...registry, areas: { ...registry.areas, [preview.area]: release }, canaries } };
}
