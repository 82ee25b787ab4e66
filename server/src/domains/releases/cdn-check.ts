/**
 * What shoppers are actually sent, read back by the integrity watch: every file of a version in
 * force that browsers load, fetched from where they load it (the areas from ASSET_ORIGIN, a CDN in production; the
 * shell's files from the shop's own address), as is and with `Accept-Encoding` br and gzip, and
 * compared with the signed manifest. A copy changed in a CDN's cache or on its way is found even
 * when the origin's own files are intact.
 *
 * Bounded: each answer is read at most to the signed size (its compressed form to what that size
 * can take) and unpacked at most to the signed size, each request has a deadline, and a few run at
 * a time.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import {
  COMPRESSED_COPIES,
  LARGER_THAN_SIGNED,
  UNREADABLE_COPY,
  integrityOf,
  maxCopyBytes,
  sha384,
  type FileDigest,
  type FileMismatch,
  type PartName,
  type ReleaseManifest,
} from '@shop/release';

/** Where browsers load released files from (null: not read back). */
export type ServedOrigins = {
  /** ASSET_ORIGIN: the areas' files, `/remotes/<area>/<version>/<file>`. */
  assetOrigin: string | null;
  /** The shop's own address: the shell's hashed files, `/<file>` and `/assets/<file>`. */
  shopUrl: string | null;
};

export const CDN_CHECK_LIMITS = {
  /** A request's deadline, its body included (ms). */
  timeoutMs: 10_000,
  /** Requests at the same time. */
  concurrency: 3,
};

/** The encodings asked for: what a client, a proxy and a browser may each be sent. */
const ENCODINGS = ['identity', 'br', 'gzip'] as const;
type Encoding = (typeof ENCODINGS)[number];
const UNPACK = new Map(COMPRESSED_COPIES.map(([suffix, unpack]) => [suffix === '.br' ? 'br' : 'gzip', unpack]));

/** The shell's files the shop's server sends by URL (web/shell-host.ts): hashed scripts, styles, icons and fonts. */
const SHELL_SERVED = /^(?:assets\/)?[\w.-]+\.(?:js|css|svg|woff2)$/;

export type CdnCheckResult = {
  /** Files answered with bytes other than the signed ones (subject: the file, and the encoding asked for). */
  mismatches: FileMismatch[];
  /** Files not answered (a status other than 200, a timeout, a refused connection): how many, and the first few. */
  unavailable: { count: number; first: string[] };
};

/** An area's files no browser loads: the server's build, the build's own data (Vite's and the federation's manifests, area.json) and its source maps (never served). */
const AREA_NOT_LOADED = /^(?:server\/|\.vite\/)|\.json$|\.map$/i;

/** The URL browsers load `file` of the version from; null when browsers never load it. */
function servedUrl(origins: ServedOrigins, part: PartName, version: string, file: string): string | null {
  if (part === 'shell') return origins.shopUrl && SHELL_SERVED.test(file) ? `${origins.shopUrl}/${file}` : null;
  if (!origins.assetOrigin || AREA_NOT_LOADED.test(file)) return null;
  return `${origins.assetOrigin}/remotes/${part}/${version}/${file}`;
}

type Answer = { status: number; encoding: string; body: Buffer; over: boolean };
/** Connections kept open for one read-back (a few hundred requests to one or two hosts). */
type Agents = { http: HttpAgent; https: HttpsAgent };

/** GETs `url`, reading at most `maxBytes + 1` bytes of its body (`over`: there were more). */
function fetchBounded(url: string, encoding: Encoding, maxBytes: number, agents: Agents): Promise<Answer> {
  const secure = url.startsWith('https:');
  const send = secure ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const request = send(
      url,
      {
        headers: { 'accept-encoding': encoding, 'user-agent': 'shop-integrity-watch' },
        signal: AbortSignal.timeout(CDN_CHECK_LIMITS.timeoutMs),
        agent: secure ? agents.https : agents.http,
      },
      (response: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let length = 0;
        let answered = false;
        const done = (over: boolean) => {
          if (answered) return;
          answered = true;
          const status = response.statusCode ?? 0;
          const encodingSent = String(response.headers['content-encoding'] ?? 'identity').toLowerCase();
          resolve({ status, encoding: encodingSent, body: Buffer.concat(chunks, Math.min(length, maxBytes + 1)), over });
        };
        response.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          length += chunk.length;
          if (length > maxBytes) {
            response.destroy();
            done(true);
          }
        });
        response.on('end', () => done(false));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end();
  });
}

/** What an answer's body is, compared with the signed digest: null when it is the signed bytes. */
async function differs(answer: Answer, signed: FileDigest): Promise<string | null> {
  if (answer.encoding === 'identity') {
    if (answer.over) return LARGER_THAN_SIGNED;
    return answer.body.length === signed.size && sha384(answer.body) === signed.sha384 ? null : `sha384-${sha384(answer.body)}`;
  }
  const unpack = UNPACK.get(answer.encoding);
  if (!unpack) return `kódovanie ${answer.encoding.slice(0, 20)}`;
  const plain = answer.over ? null : await unpack(answer.body, signed.size).catch(() => null);
  if (!plain) return UNREADABLE_COPY;
  return sha384(plain) === signed.sha384 ? null : `sha384-${sha384(plain)}`;
}

/** Runs `work` over `items`, `limit` at a time. */
async function eachLimited<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** Reads back every file of the version browsers load, in each encoding, from where they load it. */
export async function checkServedCopies(options: {
  part: PartName;
  version: string;
  manifest: ReleaseManifest;
  origins: ServedOrigins;
}): Promise<CdnCheckResult> {
  const { part, version, manifest, origins } = options;
  const requests: { file: string; url: string; signed: FileDigest; encoding: Encoding }[] = [];
  for (const [file, signed] of Object.entries(manifest.files)) {
    const url = servedUrl(origins, part, version, file);
    if (url) for (const encoding of ENCODINGS) requests.push({ file, url, signed, encoding });
  }
  const mismatches: FileMismatch[] = [];
  const unavailable: string[] = [];
  const pool = { keepAlive: true, maxSockets: CDN_CHECK_LIMITS.concurrency };
  const agents: Agents = { http: new HttpAgent(pool), https: new HttpsAgent(pool) };
  try {
    await eachLimited(requests, CDN_CHECK_LIMITS.concurrency, async ({ file, url, signed, encoding }) => {
      const bound = encoding === 'identity' ? signed.size : maxCopyBytes(signed.size);
      const answer = await fetchBounded(url, encoding, bound, agents).catch(() => null);
      if (!answer || answer.status !== 200) {
        unavailable.push(`${file} (${encoding}): ${answer ? answer.status : 'bez odpovede'}`);
        return;
      }
      const actual = await differs(answer, signed);
      if (actual !== null)
        mismatches.push({ file: encoding === 'identity' ? file : `${file} (${encoding})`, expected: integrityOf(signed), actual });
    });
  } finally {
    agents.http.destroy();
    agents.https.destroy();
  }
  return { mismatches, unavailable: { count: unavailable.length, first: unavailable.slice(0, 5) } };
}
