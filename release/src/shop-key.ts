/**
 * The shop's own release key belongs to the owner's release tool, never to a server. Its private
 * half lives outside the data directory, its origin and its backups: RELEASE_SIGNING_KEY_FILE, else
 * `$XDG_CONFIG_HOME/stavebniny/release-signing-key.pem` (`~/.config/…`), mode 600. It is made only
 * by the owner's command (`npm run credentials -- shop-key-create`, which `npm start` runs before
 * releasing), which also registers its public half in the shop's database; servers and workers
 * only ever verify with the public keys there. A team's key is made with its release credential
 * (`npm run credentials -- create`) and given to its CI as RELEASE_SIGNING_KEY (PEM text).
 */
import { randomUUID } from 'node:crypto';
import { link, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { generateSigningKey, readSigningKey, type SigningKey } from './signing.ts';

/** Owner name of the shop's own release key. */
export const SHOP_KEY_OWNER = 'shop';
/** The key's file name, in the owner's folder (and where the shop kept it before: the data directory). */
export const RELEASE_KEY_FILE = 'release-signing-key.pem';
/** The variables that hand a release tool its private key; a server refuses to start with either set. */
export const PRIVATE_KEY_VARIABLES = ['RELEASE_SIGNING_KEY', 'RELEASE_SIGNING_KEY_FILE'] as const;

/** Where the owner's private release key lives: RELEASE_SIGNING_KEY_FILE, else the owner's configuration folder. */
export function ownerKeyFile(env: NodeJS.ProcessEnv): string {
  if (env.RELEASE_SIGNING_KEY_FILE?.trim()) return resolve(env.RELEASE_SIGNING_KEY_FILE.trim());
  const config = env.XDG_CONFIG_HOME?.trim() || join(env.HOME?.trim() || homedir(), '.config');
  return join(config, 'stavebniny', RELEASE_KEY_FILE);
}

const inside = (file: string, dir: string) => {
  const path = relative(resolve(dir), file);
  return path === '' || (!path.startsWith('..') && !isAbsolute(path));
};

/** Refuses a key file a server could reach with the shop's data: inside the data directory or the origin. */
export function assertOutsideShop(file: string, places: { dataDir: string; originDir?: string }): void {
  for (const dir of [places.dataDir, places.originDir].filter(Boolean) as string[]) {
    if (inside(file, dir)) {
      throw new Error(
        `The release signing key ${file} lies inside ${dir}, which servers read and backups copy: keep it elsewhere (RELEASE_SIGNING_KEY_FILE)`,
      );
    }
  }
}

/**
 * The release tool's signing key: RELEASE_SIGNING_KEY (a team's key as PEM text), else the owner's
 * key file. Never made here: a key made anywhere but by the owner's command would sign releases no
 * server accepts.
 */
export async function loadReleaseSigningKey(env: NodeJS.ProcessEnv): Promise<SigningKey> {
  if (env.RELEASE_SIGNING_KEY?.trim()) return readSigningKey(env.RELEASE_SIGNING_KEY);
  const file = ownerKeyFile(env);
  const existing = await readFile(file, 'utf8').catch(() => null);
  if (existing?.trim()) return readSigningKey(existing);
  throw new Error(
    `There is no release signing key at ${file}: the shop's owner makes it with \`npm run credentials -- shop-key-create\` (npm start does), a team's CI sets RELEASE_SIGNING_KEY`,
  );
}

/**
 * The owner's key, made when absent (the owner's command only). A key an older shop kept in its
 * data directory is moved out to the owner's place first, so what it signed stays trusted.
 */
export async function ensureOwnerKey(
  env: NodeJS.ProcessEnv,
  places: { dataDir: string; originDir?: string },
): Promise<{ key: SigningKey; file: string; made: boolean; movedFrom: string | null }> {
  const file = ownerKeyFile(env);
  assertOutsideShop(file, places);
  const existing = await readFile(file, 'utf8').catch(() => null);
  if (existing?.trim()) return { key: readSigningKey(existing), file, made: false, movedFrom: null };
  const legacy = join(places.dataDir, RELEASE_KEY_FILE);
  const old = await readFile(legacy, 'utf8').catch(() => null);
  const pem = old?.trim() ? old : generateSigningKey().privateKeyPem;
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  // Written whole beside it, then linked in: a link never replaces a file, so of two owners'
  // commands at once the first one's key stays, and neither ever reads a half-written file.
  const draft = `${file}.${randomUUID()}.tmp`;
  await writeFile(draft, pem, { mode: 0o600, flag: 'wx' });
  const written = await link(draft, file)
    .then(
      () => true,
      (error: NodeJS.ErrnoException) => {
        if (error.code !== 'EEXIST') throw error;
        return false;
      },
    )
    .finally(() => rm(draft, { force: true }));
  if (written && old?.trim()) await rm(legacy, { force: true });
  return {
    key: readSigningKey(await readFile(file, 'utf8')),
    file,
    made: written && !old?.trim(),
    movedFrom: written && old?.trim() ? legacy : null,
  };
}
