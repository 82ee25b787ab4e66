/**
 * Source maps in a release: listed with their hashes in the signed manifest like every file of the
 * build, kept beside the version on the origin (never compressed: no browser is sent one), and
 * named by the one rule the origins apply to refuse them.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { deploy } from '../src/deploy.ts';
import { generateSigningKey, isSourceMap, readSigningKey, verifySignedManifest, MANIFEST_FILE, SIGNATURE_FILE } from '../src/signing.ts';
import { localDirectoryStorage } from '../src/storage.ts';

const dirs: string[] = [];
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A checkout build as Vite writes it with `sourcemap: 'hidden'`: each chunk with its map beside it. */
function buildWithMaps(): string {
  const dir = tempDir('build-checkout-');
  mkdirSync(join(dir, 'assets'));
  const chunk = `export default function a(){throw new Error("x")}${' '.repeat(400)}`;
  writeFileSync(join(dir, 'remoteEntry.js'), 'export const area = "checkout";');
  writeFileSync(join(dir, 'remoteEntry.js.map'), JSON.stringify({ version: 3, sources: ['../src/entry.ts'], names: [], mappings: 'AAAA' }));
  writeFileSync(join(dir, 'assets', 'cart-page-Ab12.js'), chunk);
  writeFileSync(
    join(dir, 'assets', 'cart-page-Ab12.js.map'),
    JSON.stringify({ version: 3, sources: ['../../src/pages/cart-page.tsx'], names: ['CartPage'], mappings: 'AAAA', pad: 'x'.repeat(400) }),
  );
  const routes = [{ name: 'checkout-cart', path: '/checkout/cart', module: './CartPage', layout: 'default' }];
  writeFileSync(
    join(dir, 'area.json'),
    JSON.stringify({ area: 'checkout', kernel: '1.0.0', react: '19.3.1', exposes: ['./CartPage'], routes }),
  );
  writeFileSync(
    join(dir, 'mf-manifest.json'),
    JSON.stringify({
      name: 'checkout',
      metaData: { remoteEntry: { name: 'remoteEntry.js' } },
      exposes: [{ name: 'CartPage', assets: { js: { sync: ['assets/cart-page-Ab12.js'], async: [] } } }],
    }),
  );
  return dir;
}

describe('source maps in a release', () => {
  it('are listed with their SHA-384 and size in the signed manifest and kept beside the version, uncompressed', async () => {
    const key = generateSigningKey();
    const origin = tempDir('origin-');
    const storage = localDirectoryStorage(origin);
    const dist = buildWithMaps();
    const { version } = await deploy({
      storage,
      part: 'checkout',
      distDir: dist,
      packageVersion: '1.0.0',
      provenance: { who: 'test' },
      init: true,
      signingKey: readSigningKey(key.privateKeyPem),
    });
    const folder = join(origin, 'remotes', 'checkout', version);
    const manifest = verifySignedManifest(
      { text: readFileSync(join(folder, MANIFEST_FILE), 'utf8'), signature: readFileSync(join(folder, SIGNATURE_FILE), 'utf8') },
      [{ keyId: key.keyId, owner: 'shop', area: null, publicKey: key.publicKeyPem }],
      { part: 'checkout', version },
    );
    for (const map of ['remoteEntry.js.map', 'assets/cart-page-Ab12.js.map']) {
      const bytes = readFileSync(join(dist, map));
      expect(manifest.files[map]).toEqual({ sha384: createHash('sha384').update(bytes).digest('base64'), size: bytes.length });
      expect(readFileSync(join(folder, map))).toEqual(bytes);
      // The chunk beside it is precompressed for browsers; its map, which no browser gets, is not.
      expect(() => readFileSync(join(folder, `${map}.br`))).toThrow();
    }
    expect(readFileSync(join(folder, 'assets', 'cart-page-Ab12.js.br')).length).toBeGreaterThan(0);
  });

  it('are what the origins refuse by name, in any letter case; nothing else is', () => {
    expect(isSourceMap('assets/cart-page-Ab12.js.map')).toBe(true);
    expect(isSourceMap('remoteEntry.js.MAP')).toBe(true);
    expect(isSourceMap('assets/cart-page-Ab12.js')).toBe(false);
    expect(isSourceMap('assets/map.json')).toBe(false);
    expect(isSourceMap('assets/sitemap.css')).toBe(false);
  });
});
