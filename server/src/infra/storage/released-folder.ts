/**
 * The local path of a released folder (a version of the shell or of an area:
 * `shells/shell/<version>`, `remotes/<area>/<version>`), for what the server
 * reads from disk: the shell's index.html and server build, an area's server
 * build and manifests, the files the static origin sends.
 *
 * On the local directory it is the folder itself, at once. On an object store
 * the first use downloads the folder into the storage's cache (`materialize`);
 * uses at the same time share that download. Released folders are
 * content-hashed and never change, so each process remembers (per storage) the
 * folders it has on disk, and a page view neither stats nor downloads again. A
 * folder that is not there is looked for again after a few seconds (its path
 * is returned meanwhile: reading it fails as a missing file does).
 */
import { stat } from 'node:fs/promises';
import type { ReleaseStorage } from '@shop/release';

/** How long a folder found absent is not looked for again (ms). */
const MISSING_MS = 5000;
/** Folders remembered per storage (either way); the oldest is forgotten first (and looked up again when asked for). */
const LIMIT = 2000;

type Known = {
  ready: Map<string, string>;
  pending: Map<string, Promise<string>>;
  /** Folder key → until when it is taken as absent. */
  missing: Map<string, number>;
};
const known = new WeakMap<ReleaseStorage, Known>();

function remember<T>(map: Map<string, T>, key: string, value: T) {
  map.delete(key);
  map.set(key, value);
  while (map.size > LIMIT) map.delete(map.keys().next().value as string);
}

export function releasedFolder(storage: ReleaseStorage, key: string): Promise<string> {
  if (storage.local) return storage.materialize(key);
  let state = known.get(storage);
  if (!state) {
    state = { ready: new Map(), pending: new Map(), missing: new Map() };
    known.set(storage, state);
  }
  const { ready, pending, missing } = state;
  const dir = ready.get(key);
  if (dir !== undefined) return Promise.resolve(dir);
  const absentUntil = missing.get(key);
  if (absentUntil !== undefined) {
    if (Date.now() < absentUntil) return Promise.resolve(storage.localPath(key));
    missing.delete(key);
  }
  let loading = pending.get(key);
  if (!loading) {
    loading = storage
      .materialize(key)
      .then(async (path) => {
        const there = await stat(path).then(
          (info) => info.isDirectory(),
          () => false,
        );
        if (there) remember(ready, key, path);
        else remember(missing, key, Date.now() + MISSING_MS);
        return path;
      })
      .finally(() => pending.delete(key));
    pending.set(key, loading);
  }
  return loading;
}

/** The folder of a file key: `remotes/catalog/1.0.0-ab12/remoteEntry.js` → `remotes/catalog/1.0.0-ab12`. */
export function folderOf(key: string): string {
  return key.replace(/\/[^/]*$/, '');
}
