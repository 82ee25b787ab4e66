/**
 * A build's upload to its immutable versioned folder on the origin, with its signed manifest and
 * the brotli and gzip copies the origin sends: made here, once (a build that brings its own is
 * refused, upload-bundle.ts).
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { listFiles } from './build-info.ts';
import type { PartName } from './registry.ts';
import { partPrefix } from './release-paths.ts';
import { MANIFEST_FILE, SIGNATURE_FILE, type SignedManifest } from './signing.ts';
import type { ReleaseStorage } from './storage.ts';

const COMPRESSIBLE = /\.(js|mjs|css|json|html|svg|txt)$/;
/** The manifest and its signature are read by the server, never sent compressed. */
const NOT_PRECOMPRESSED = new Set([MANIFEST_FILE, SIGNATURE_FILE]);

async function precompress(dir: string): Promise<void> {
  for (const file of await listFiles(dir)) {
    if (!COMPRESSIBLE.test(file) || NOT_PRECOMPRESSED.has(file.replace(/^.*\//, ''))) continue;
    const body = await readFile(file);
    if (body.length < 256) continue;
    await writeFile(`${file}.br`, brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
    await writeFile(`${file}.gz`, gzipSync(body, { level: 9 }));
  }
}

/** Uploads a build to its immutable versioned folder with its signed manifest (nothing when the version is there already). */
export async function uploadVersion(
  storage: ReleaseStorage,
  part: PartName,
  version: string,
  distDir: string,
  signed: SignedManifest | null,
): Promise<void> {
  const prefix = partPrefix(part, version);
  if (await storage.exists(prefix)) {
    // Released before signing began: the same content (the version is its hash) gets its manifest now.
    // Were the files on the origin changed meanwhile, they still differ from it and are found.
    if (signed && !(await storage.exists(`${prefix}/${MANIFEST_FILE}`))) {
      await storage.writeTextAtomic(`${prefix}/${SIGNATURE_FILE}`, `${signed.signature}\n`);
      await storage.writeTextAtomic(`${prefix}/${MANIFEST_FILE}`, signed.text);
    }
    return;
  }
  const staging = await mkdtemp(join(tmpdir(), `release-${part}-`));
  try {
    await cp(distDir, staging, { recursive: true });
    if (signed) {
      await writeFile(join(staging, MANIFEST_FILE), signed.text);
      await writeFile(join(staging, SIGNATURE_FILE), `${signed.signature}\n`);
    }
    await precompress(staging);
    await storage.putFolder(staging, prefix);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
