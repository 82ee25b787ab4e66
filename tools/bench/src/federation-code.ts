/**
 * Which of a page's scripts are the module federation's own code: its runtime (the shell's copy,
 * and the areas' proxy to it) and what @module-federation/vite generates around the parts (the
 * remote entries, the share bridges, the shared-import maps, the host's init). The rest is the
 * shop's code and the libraries it uses, which the monolith build loads too. The wrappers of the
 * shared libraries (`…__loadShare__react__loadShare__.js`) carry the library itself and are not
 * counted, so the figure is a floor of what composition adds.
 */
const GENERATED_FILES = [
  /\/remoteEntry(-[\w-]+)?\.js$/,
  /\/_virtual_mf-localSharedImportMap[^/]*\.js$/,
  /__loadShare__shared-[\w-]+\.js$/,
  /\/(mf-entry-bootstrap|hostInit|pendingShares)-[\w-]+\.js$/,
];
/** Strings only the federation runtime's code holds: its debug switch, and the areas' handle on the shell's runtime. */
const RUNTIME_MARKERS = ['FEDERATION_DEBUG', '_FEDERATION_RUNTIME_CORE'];

const known = new Map<string, Promise<boolean>>();

async function classify(url: string): Promise<boolean> {
  const { pathname } = new URL(url);
  if (GENERATED_FILES.some((pattern) => pattern.test(pathname))) return true;
  const response = await fetch(url, { headers: { 'accept-encoding': 'identity' } });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  const body = await response.text();
  return RUNTIME_MARKERS.some((marker) => body.includes(marker));
}

/** Whether the script at `url` is the federation's own code (each URL fetched at most once). */
export function isFederationCode(url: string): Promise<boolean> {
  let answer = known.get(url);
  if (!answer) {
    answer = classify(url);
    known.set(url, answer);
  }
  return answer;
}
