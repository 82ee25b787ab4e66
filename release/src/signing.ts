/**
 * Signed release manifests: every file of a build with its SHA-384 and size, the part and version
 * they are, signed (Ed25519) by the key of the team that released it or by the shop's release key.
 * The manifest and its signature sit in the version's folder on the origin
 * (`release-manifest.json`, `release-manifest.sig`), but the keys that may sign are kept in the
 * shop's database (release-keys.ts): whoever can write to the origin or the bucket cannot make a
 * file, a manifest or a registry entry the shop will serve.
 */
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, sign, verify, type KeyObject } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { relative, sep } from 'node:path';
import { brotliDecompress, gunzip, type InputType, type ZlibOptions } from 'node:zlib';
import { promisify } from 'node:util';
import { listFiles } from './build-info.ts';
import { ReleaseRefused } from './refusal.ts';
import { isPart, isVersionName, type PartName } from './registry.ts';
import { isSafeBuildPath, refuseOwnCompressedCopiesIn, UPLOAD_LIMITS } from './upload-bundle.ts';

export const MANIFEST_FILE = 'release-manifest.json';
export const SIGNATURE_FILE = 'release-manifest.sig';
/** A manifest is small (a line per file): anything larger is refused before it is parsed. */
export const MANIFEST_MAX_BYTES = 256 * 1024;

export type FileDigest = { sha384: string; size: number };
export type ReleaseManifest = {
  format: 1;
  part: PartName;
  version: string;
  signedAt: string;
  /** Random: two signings of the same build differ, so an upload seen once can be told from a replay of it. */
  nonce: string;
  keyId: string;
  files: Record<string, FileDigest>;
};
export type SignedManifest = { text: string; signature: string };
/** A key the shop accepts signatures of: a team's (one area) or the shop's own (`area` null: every part). */
export type TrustedKey = { keyId: string; owner: string; area: string | null; publicKey: string };
export type SigningKey = { keyId: string; privateKey: KeyObject };

export const sha384 = (bytes: Uint8Array): string => createHash('sha384').update(bytes).digest('base64');
/** The Subresource Integrity form of a digest, as browsers compare it. */
export const integrityOf = (digest: FileDigest): string => `sha384-${digest.sha384}`;

/** A key's id: the first 16 hex digits of the SHA-256 of its public key (SPKI, DER). */
export function keyIdOf(key: KeyObject): string {
  const publicKey = key.type === 'private' ? createPublicKey(key) : key;
  return createHash('sha256')
    .update(publicKey.export({ type: 'spki', format: 'der' }))
    .digest('hex')
    .slice(0, 16);
}

/** A new Ed25519 key pair: the private key as PEM (for the signer only), the public key as PEM (for the shop). */
export function generateSigningKey(): { privateKeyPem: string; publicKeyPem: string; keyId: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    keyId: keyIdOf(publicKey),
  };
}

/** A private signing key from PEM text (a file's content or an environment variable). */
export function readSigningKey(pem: string): SigningKey {
  const privateKey = createPrivateKey(
    pem.includes('-----BEGIN') ? pem : `-----BEGIN PRIVATE KEY-----\n${pem.trim()}\n-----END PRIVATE KEY-----\n`,
  );
  if (privateKey.asymmetricKeyType !== 'ed25519') throw new Error('a release signing key is an Ed25519 private key');
  return { keyId: keyIdOf(privateKey), privateKey };
}

export const publicKeyPemOf = (key: SigningKey): string =>
  createPublicKey(key.privateKey).export({ type: 'spki', format: 'pem' }).toString();

const isManifestFile = (path: string) => path === MANIFEST_FILE || path === SIGNATURE_FILE;

/**
 * Every file of a build directory (not a manifest), digested. A build that brings compressed copies
 * of its own is refused: the release makes them (upload-version.ts), so none is ever signed or uploaded.
 */
export async function digestBuild(dir: string): Promise<Record<string, FileDigest>> {
  await refuseOwnCompressedCopiesIn(dir);
  const files: Record<string, FileDigest> = {};
  for (const path of await listFiles(dir)) {
    const name = relative(dir, path).split(sep).join('/');
    if (isManifestFile(name)) continue;
    const body = await readFile(path);
    files[name] = { sha384: sha384(body), size: body.length };
  }
  return files;
}

export function signManifest(
  key: SigningKey,
  input: { part: PartName; version: string; files: Record<string, FileDigest> },
): SignedManifest {
  const manifest: ReleaseManifest = {
    format: 1,
    part: input.part,
    version: input.version,
    signedAt: new Date().toISOString(),
    nonce: randomBytes(16).toString('base64url'),
    keyId: key.keyId,
    files: Object.fromEntries(Object.entries(input.files).sort(([a], [b]) => (a < b ? -1 : 1))),
  };
  const text = `${JSON.stringify(manifest, null, 1)}\n`;
  return { text, signature: sign(null, Buffer.from(text, 'utf8'), key.privateKey).toString('base64') };
}

const refuse = (message: string): never => {
  throw new ReleaseRefused('bad_signature', `${message} Nothing was changed.`);
};

function parseManifest(text: string): ReleaseManifest {
  let manifest: ReleaseManifest;
  try {
    manifest = JSON.parse(text) as ReleaseManifest;
  } catch {
    return refuse('The release manifest is not valid JSON.');
  }
  if (typeof manifest !== 'object' || manifest === null || manifest.format !== 1) refuse('The release manifest has an unknown format.');
  if (!isPart(String(manifest.part)) || !isVersionName(String(manifest.version)))
    refuse('The release manifest names no valid part or version.');
  if (typeof manifest.files !== 'object' || manifest.files === null) refuse('The release manifest lists no files.');
  const entries = Object.entries(manifest.files);
  if (entries.length === 0 || entries.length > UPLOAD_LIMITS.files)
    refuse(`The release manifest lists ${entries.length} files; a build has 1 to ${UPLOAD_LIMITS.files}.`);
  for (const [path, digest] of entries) {
    if (!isSafeBuildPath(path) || isManifestFile(path)) refuse(`The release manifest names an unsafe path (${path.slice(0, 80)}).`);
    if (
      typeof digest?.sha384 !== 'string' ||
      !/^[A-Za-z0-9+/]{64}$/.test(digest.sha384) ||
      !Number.isSafeInteger(digest.size) ||
      digest.size < 0
    ) {
      refuse(`The release manifest's digest of ${path.slice(0, 80)} is not a SHA-384 and a size.`);
    }
  }
  return manifest;
}

/**
 * The manifest, when `signed` is signed by one of `keys` that may sign `expect.part`, and names
 * that part and version; otherwise refused ('bad_signature').
 */
export function verifySignedManifest(
  signed: SignedManifest,
  keys: readonly TrustedKey[],
  expect: { part: PartName; version?: string },
): ReleaseManifest {
  if (Buffer.byteLength(signed.text, 'utf8') > MANIFEST_MAX_BYTES) refuse('The release manifest is too large.');
  if (!/^[A-Za-z0-9+/]{86}==$/.test(signed.signature.trim())) refuse('The release manifest has no valid signature.');
  const manifest = parseManifest(signed.text);
  const key = keys.find((candidate) => candidate.keyId === manifest.keyId);
  if (!key) refuse(`The release manifest is signed with a key the shop does not accept (${String(manifest.keyId).slice(0, 20)}).`);
  if (key!.area !== null && key!.area !== expect.part) refuse(`The key of ${key!.owner} may sign only ${key!.area}, not ${expect.part}.`);
  const valid = verify(
    null,
    Buffer.from(signed.text, 'utf8'),
    createPublicKey(key!.publicKey),
    Buffer.from(signed.signature.trim(), 'base64'),
  );
  if (!valid) refuse('The release manifest’s signature does not match it.');
  if (manifest.part !== expect.part) refuse(`The release manifest is of ${manifest.part}, not of ${expect.part}.`);
  if (expect.version !== undefined && manifest.version !== expect.version)
    refuse(`The release manifest is of version ${manifest.version}, not ${expect.version}.`);
  return manifest;
}

export type FileMismatch = {
  file: string;
  expected: string | null;
  actual: string | null;
  /** Where the bytes were read: the origin (a directory or the bucket; unset), or a server's copy of a bucket's version on its disk. */
  where?: 'local-copy';
};

/** Files whose bytes differ from the manifest, that it lists but are missing, or that it does not list. */
export function compareDigests(manifest: ReleaseManifest, actual: Record<string, FileDigest>): FileMismatch[] {
  const mismatches: FileMismatch[] = [];
  for (const [file, digest] of Object.entries(manifest.files)) {
    const found = actual[file];
    if (!found) mismatches.push({ file, expected: integrityOf(digest), actual: null });
    else if (found.sha384 !== digest.sha384 || found.size !== digest.size)
      mismatches.push({ file, expected: integrityOf(digest), actual: integrityOf(found) });
  }
  for (const [file, digest] of Object.entries(actual)) {
    if (!manifest.files[file]) mismatches.push({ file, expected: null, actual: integrityOf(digest) });
  }
  return mismatches;
}

type Unpack = (bytes: InputType, options: ZlibOptions) => Promise<Buffer>;
const unbrotli = promisify(brotliDecompress) as Unpack;
const ungzip = promisify(gunzip) as Unpack;

/**
 * The compressed copies a release keeps beside a file (sent instead of it): each must unpack to the
 * file's bytes. Unpacked never past `maxBytes` (the signed file's size): a copy that would grow
 * beyond it (a decompression bomb) is refused when it reaches the bound, not after.
 */
export const COMPRESSED_COPIES: readonly [suffix: string, unpack: (bytes: Buffer, maxBytes: number) => Promise<Buffer>][] = [
  ['.br', (bytes, maxBytes) => unbrotli(bytes, { maxOutputLength: Math.max(1, maxBytes) })],
  ['.gz', (bytes, maxBytes) => ungzip(bytes, { maxOutputLength: Math.max(1, maxBytes) })],
];

/**
 * A build's source maps (`<file>.map`, written with no sourceMappingURL in the file): listed in the
 * signed manifest and kept beside the release for the shop's server to map client errors, never
 * sent to a browser by the shop's origin or the asset origin.
 */
export const isSourceMap = (file: string): boolean => /\.map$/i.test(file);

/** The files a browser runs as modules: JavaScript, not the server's build. */
export const isBrowserScript = (file: string): boolean => /\.m?js$/.test(file) && !file.startsWith('server/');
