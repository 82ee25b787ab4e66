/**
 * The shop's own release key: RELEASE_SIGNING_KEY, or one generated once into the data directory
 * (mode 600), used by the release command with direct access to the origin (`npm start`, an
 * operator's machine) and registered by every server at start. A team's key is made with its
 * release credential (`npm run credentials -- create`); the keys a shop accepts are in its
 * database (api/src/domains/releases/release-keys.repository.ts).
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generateSigningKey, readSigningKey, type SigningKey } from './signing.ts';

/** Owner name of the shop's own release key. */
export const SHOP_KEY_OWNER = 'shop';
/** Its file in the data directory (the server's SECRET_FILES.releaseKey, so a backup copies it). */
export const RELEASE_KEY_FILE = 'release-signing-key.pem';

/** The shop's release key: RELEASE_SIGNING_KEY (PEM), or <dataDir>/release-signing-key.pem, made on first use. */
export async function loadShopReleaseKey(env: NodeJS.ProcessEnv, dataDir: string, options: { create?: boolean } = {}): Promise<SigningKey> {
  if (env.RELEASE_SIGNING_KEY?.trim()) return readSigningKey(env.RELEASE_SIGNING_KEY);
  const file = join(dataDir, RELEASE_KEY_FILE);
  const existing = await readFile(file, 'utf8').catch(() => null);
  if (existing?.trim()) return readSigningKey(existing);
  if (options.create === false) {
    throw new Error(
      `There is no release signing key in ${dataDir}: set RELEASE_SIGNING_KEY (a team's key, from \`npm run credentials -- create\`) or DATA_DIR (the shop's data directory)`,
    );
  }
  const made = generateSigningKey();
  await mkdir(dataDir, { recursive: true });
  // 'wx': two processes starting at once keep the first one's key.
  await writeFile(file, made.privateKeyPem, { mode: 0o600, flag: 'wx' }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error;
  });
  return readSigningKey(await readFile(file, 'utf8'));
}
