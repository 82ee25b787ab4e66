/**
 * Where the areas' page modules come from when the shop's server renders a page: the server
 * build of each area at the version this render uses, handed in by the server (the browser's
 * version, module-source.ts, loads them through the federation runtime instead).
 */
export type AreaEntry = { name: string; entry: string };
export type ServerModuleLoader = (key: string) => Promise<unknown>;

let loader: ServerModuleLoader | null = null;

/** Set once per shell instance on the server: each instance renders one choice of area versions. */
export function setServerModuleLoader(next: ServerModuleLoader): void {
  loader = next;
}

export function registerAreaEntries(_areas: AreaEntry[]): void {
  // The server knows the areas from the registry it renders with.
}

export function moveAreaEntry(_area: AreaEntry): void {
  // A server build is handed in, never fetched: there is no other address to load it from.
}

/** `key` is '<area>/<ExposedName>'. */
export function importAreaModule<T>(key: string): Promise<T | null> {
  if (!loader) return Promise.resolve(null);
  return loader(key).then((loaded) => (loaded ?? null) as T | null);
}
