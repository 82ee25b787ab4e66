/**
 * Other spellings of a released file's path, for the tests that every one of them is refused
 * (test/releases/release-bytes-tampered.test.ts and release-bytes-shop-origin.test.ts on one server,
 * test-cluster/integrity-bytes.test.ts through nginx), and a request that sends a path exactly as
 * written.
 */
import { request as httpRequest } from 'node:http';

export type RawAnswer = { status: number; body: string; headers: Record<string, string | string[] | undefined> };
/** A request with the path exactly as written (fetch would resolve `..` and `.` before sending it). */
export function rawGet(base: string, path: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const target = new URL(base);
    const request = httpRequest({ host: target.hostname, port: target.port, path, method: 'GET', headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString(), headers: response.headers }),
      );
    });
    request.on('error', reject);
    request.end();
  });
}

/** Every spelling of a released file's path but its one canonical form (and files no manifest lists). */
export function nonCanonical(version: string, shell: string): string[] {
  const at = `/remotes/checkout/${version}`;
  const canonical = `${at}/remoteEntry.js`;
  const spellings = [
    `/remotes/checkout//${version}/remoteEntry.js`,
    `/remotes//checkout/${version}/remoteEntry.js`,
    `//remotes/checkout/${version}/remoteEntry.js`,
    `${at}//remoteEntry.js`,
    `/remotes/checkout/./${version}/remoteEntry.js`,
    `/remotes/./checkout/${version}/remoteEntry.js`,
    `/./remotes/checkout/${version}/remoteEntry.js`,
    `${at}/./remoteEntry.js`,
    `${at}/assets/../remoteEntry.js`,
    `/remotes/checkout/x/../${version}/remoteEntry.js`,
    `/remotes/checkout/%2e/${version}/remoteEntry.js`,
    `${at}/%2e/remoteEntry.js`,
    `${at}/%2E/remoteEntry.js`,
    `${at}/assets/%2e%2e/remoteEntry.js`,
    `${at}/assets/%2E%2E/remoteEntry.js`,
    `${at}/remoteEntry%2ejs`,
    `${at}%2fremoteEntry.js`,
    `${at}%2FremoteEntry.js`,
    `/remotes%2fcheckout%2f${version}%2fremoteEntry.js`,
    `${at}/assets%2Fpage.js`,
    `${at}/assets%2fpage.js`,
    `/%72emotes/checkout/${version}/remoteEntry.js`,
    `/remotes/%63heckout/${version}/remoteEntry.js`,
    `${at}/%72emoteEntry.js`,
    `${at}/remoteEntry.js%2e`,
    `/Remotes/checkout/${version}/remoteEntry.js`,
    `/REMOTES/checkout/${version}/remoteEntry.js`,
    `/remotes/Checkout/${version}/remoteEntry.js`,
    `/remotes/checkout/${version.toUpperCase()}/remoteEntry.js`,
    `${at}/RemoteEntry.js`,
    `${at}/remoteentry.js`,
    `${at}/remoteEntry.JS`,
    `${at}/ASSETS/page.js`,
    `${at}/remoteEntry.js/`,
    `${at}/`,
    at,
    '/remotes/',
    `${at}\\remoteEntry.js`,
    `/remotes\\checkout/${version}/remoteEntry.js`,
    `${at}/%5cremoteEntry.js`,
    `${at}/%5CremoteEntry.js`,
    `${at}/remoteEntry.js%00`,
    `${at}/remoteEntry.js%00.png`,
    `${at}/%00/remoteEntry.js`,
    `${at}/remoteEntry.js;.png`,
    `${at}/remoteEntry.js%20`,
    `${at}/${'a/'.repeat(7)}remoteEntry.js`,
    `${at}/${'x'.repeat(800)}.js`,
    `${at}/${'%2e%2e/'.repeat(120)}remoteEntry.js`,
    // Files of the folder no manifest lists as a released file.
    `${at}/release-manifest.json`,
    `${at}/release-manifest.sig`,
    `${at}/assets/constructor`,
    `/shells/shell/${shell}/index.html`,
    `/shells/shell/${shell}/routes.json`,
  ];
  // A version of digits only (its suffix is hex) is its own upper case: that spelling is the canonical one.
  return spellings.filter((spelling) => spelling !== canonical);
}
