import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deploy,
  readHistory,
  readRegistry,
  packBuild,
  localDirectoryStorage,
  digestBuild,
  generateSigningKey,
  readSigningKey,
  signManifest,
  hashBuild,
} from '@shop/release';
import { fakeAreaBuild, fakeShellBuild, tempDir } from '@shop/release/testing';
import { startTestApi, type TestApi } from '../helpers/test-api.ts';
import { registerShopKey, releaseKeys } from '../../src/domains/releases/release-keys.repository.ts';

/** The shop's release key: CI uploads below are signed with it. */
const shopKey = readSigningKey(generateSigningKey().privateKeyPem);
const signed = async (dir: string) =>
  signManifest(shopKey, { part: 'checkout', version: `1.0.0-${await hashBuild(dir)}`, files: await digestBuild(dir) });

/** The signed-in operator's Cookie header. */
let token = '';
let operatorName = '';
let api: TestApi;
const origin = tempDir('ops-origin-');
const storage = localDirectoryStorage(origin);

beforeAll(async () => {
  for (const marker of ['one', 'two']) {
    await deploy({
      storage,
      part: 'checkout',
      distDir: fakeAreaBuild('checkout', { marker }),
      packageVersion: '1.0.0',
      provenance: { who: 'team' },
      init: true,
    });
  }
  await deploy({ storage, part: 'shell', distDir: fakeShellBuild(), packageVersion: '1.0.0', provenance: { who: 'team' } });
  const health = async () => [{ area: 'checkout', version: (await readRegistry(storage)).areas.checkout!.version, views: 12, errors: 3 }];
  api = await startTestApi({
    operatorConsole: ({ db }) => ({
      storage,
      publicUrl: 'https://shop.example',
      health,
      keys: releaseKeys(db),
      inventory: {
        tagManagerId: 'GTM-OPSTEST',
        policy: { assetOrigin: 'https://cdn.example', tagManager: true, gateway: 'https://pay.example', reportTo: true },
      },
    }),
  });
  await registerShopKey(releaseKeys(api.db), shopKey);
  ({ cookie: token, name: operatorName } = await api.operator());
});
afterAll(async () => {
  await api?.close();
});

/** A call of the console on the operator origin (JSON from its own origin, as the console sends it). */
const call = (path: string, init: { method?: string; body?: string; token?: string } = {}) =>
  fetch(`${api.opsUrl}/api/ops${path}`, {
    method: init.method ?? 'GET',
    headers: {
      ...(init.token ? { cookie: init.token } : {}),
      ...(init.body ? { 'content-type': 'application/json', origin: api.opsUrl } : {}),
    },
    ...(init.body ? { body: init.body } : {}),
  });

describe('operator calls', () => {
  it('refuse a missing or wrong session with the error shape', async () => {
    for (const given of [undefined, 'shop_ops_session=wrong', `${token}x`]) {
      const response = await call('/releases', { token: given });
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ error: { code: 'unauthorized', message: 'Prihláste sa ako operátor.' } });
    }
    // Nothing but a team's credential opens /api/ops with a Bearer token.
    const byToken = await fetch(`${api.opsUrl}/api/ops/releases`, { headers: { authorization: 'Bearer operator-secret-token' } });
    expect(byToken.status).toBe(401);
    expect(((await byToken.json()) as { error: { code: string } }).error.code).toBe('unauthorized');
  });

  it('show the versions in force and the history', async () => {
    const response = await call('/releases', { token });
    expect(response.status).toBe(200);
    const { data } = (await response.json()) as { data: { parts: { part: string; version: string | null }[]; history: unknown[] } };
    const registry = await readRegistry(storage);
    expect(data.parts.find((part) => part.part === 'checkout')?.version).toBe(registry.areas.checkout!.version);
    expect(data.history).toHaveLength(3);
    expect(data).toMatchObject({ registry: true, lock: null, health: [{ area: 'checkout', views: 12, errors: 3 }] });
    expect(data.parts.find((part) => part.part === 'checkout')).toMatchObject({ pin: null, canary: null, rollback: { by: 'team' } });
  });

  it('roll an area back, and answer 409 with the reason when there is nothing to roll back to', async () => {
    const before = (await readRegistry(storage)).areas.checkout!.version;
    const rolled = await call('/releases/checkout/rollback', { method: 'POST', token, body: '{}' });
    expect(rolled.status).toBe(200);
    const { data } = (await rolled.json()) as { data: { from: string; version: string } };
    expect(data.from).toBe(before);
    expect((await readRegistry(storage)).areas.checkout!.version).toBe(data.version);

    expect((await readRegistry(storage)).pins?.checkout).toMatchObject({ version: data.version, by: operatorName });

    // Rolled back: a rollback without a version would go forth again, so it is refused with the reason.
    const again = await call('/releases/checkout/rollback', { method: 'POST', token, body: '{}' });
    expect(again.status).toBe(409);
    expect(((await again.json()) as { error: { message: string } }).error.message).toContain('needs a named version');

    const refused = await call('/releases/catalog/rollback', { method: 'POST', token, body: '{}' });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('conflict');
    expect((await call('/releases/nothing/rollback', { method: 'POST', token, body: '{}' })).status).toBe(404);
    expect(
      (await call('/releases/checkout/rollback', { method: 'POST', token, body: JSON.stringify({ reason: 'x'.repeat(501) }) })).status,
    ).toBe(400);
  });

  it('unpin and pin a part', async () => {
    expect((await call('/releases/checkout/unpin', { method: 'POST', token, body: '{}' })).status).toBe(200);
    expect((await readRegistry(storage)).pins?.checkout).toBeUndefined();
    expect((await call('/releases/checkout/unpin', { method: 'POST', token, body: '{}' })).status).toBe(409);
    expect((await call('/releases/checkout/pin', { method: 'POST', token, body: JSON.stringify({ reason: 'sale weekend' }) })).status).toBe(
      200,
    );
    expect((await readRegistry(storage)).pins?.checkout).toMatchObject({ reason: 'sale weekend' });
    await call('/releases/checkout/unpin', { method: 'POST', token, body: '{}' });
  });

  it('release a build uploaded by CI with the same checks, as a canary, then abort it; make preview links', async () => {
    const dir = fakeAreaBuild('checkout', { marker: 'from-ci' });
    const { files } = await packBuild(dir);
    const upload = (body: object) => call('/releases/checkout/upload', { method: 'POST', token, body: JSON.stringify(body) });
    const base = {
      packageVersion: '1.0.0',
      budgetBytes: null,
      who: 'ci',
      commit: 'abcdef123456',
      dirty: false,
      files,
      manifest: await signed(dir),
    };

    const canary = await upload({ ...base, mode: 'canary', share: 20, reason: 'new basket' });
    expect(canary.status).toBe(200);
    const { data } = (await canary.json()) as { data: { result: { version: string } } };
    expect((await readRegistry(storage)).canaries?.checkout).toMatchObject({ version: data.result.version, share: 20 });
    expect((await readHistory(storage)).at(-1)).toMatchObject({
      action: 'canary',
      who: `${operatorName} (ci, upload)`,
      commit: 'abcdef123456',
      reason: 'new basket',
    });

    expect((await call('/releases/checkout/abort', { method: 'POST', token, body: JSON.stringify({ reason: 'manual' }) })).status).toBe(
      200,
    );
    expect((await readRegistry(storage)).canaries?.checkout).toBeUndefined();

    // The same checks: an area that lacks its route's module is refused and nothing moves.
    const broken = fakeAreaBuild('checkout', {
      marker: 'broken',
      routes: [{ name: 'x', path: '/x', module: './Nope', layout: 'default' }],
    });
    const refused = await upload({ ...base, mode: 'live', files: (await packBuild(broken)).files, manifest: await signed(broken) });
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as { error: { refusal: string } }).error.refusal).toBe('missing_module');
    expect((await upload({ ...base, mode: 'live', files: { '../../etc/x': 'eA==' } })).status).toBe(422);
    expect((await call('/releases/checkout/upload', { method: 'POST', body: JSON.stringify({ ...base, mode: 'live' }) })).status).toBe(401);

    const preview = await call('/releases/checkout/preview', {
      method: 'POST',
      token,
      body: JSON.stringify({ version: data.result.version }),
    });
    expect(preview.status).toBe(200);
    const link = ((await preview.json()) as { data: { url: string } }).data.url;
    expect(link).toMatch(/^https:\/\/shop\.example\/preview\?token=/);
    expect(
      (await call('/releases/checkout/preview', { method: 'POST', token, body: JSON.stringify({ version: '9.9.9-none' }) })).status,
    ).toBe(404);
  });
});

describe('the inventory of scripts', () => {
  it('lists every script of every part in force with its SHA-384, size, pages and who released it, the third parties and the policy', async () => {
    const response = await call('/inventory', { token });
    expect(response.status).toBe(200);
    const { data } = (await response.json()) as {
      data: {
        parts: {
          part: string;
          version: string;
          state: string;
          pages: string[];
          releasedBy: string | null;
          files: { file: string; sha384: string; bytes: number }[];
        }[];
        thirdParty: { url: string; why: string }[];
        policy: string;
      };
    };
    const registry = await readRegistry(storage);
    const checkout = data.parts.find((p) => p.part === 'checkout' && p.state === 'stable')!;
    expect(checkout.version).toBe(registry.areas.checkout!.version);
    expect(checkout.releasedBy).toBeTruthy();
    expect(checkout.files.length).toBeGreaterThan(0);
    for (const file of checkout.files) {
      const bytes = readFileSync(join(origin, 'remotes', 'checkout', checkout.version, file.file));
      expect(file.sha384).toBe(`sha384-${createHash('sha384').update(bytes).digest('base64')}`);
      expect(file.bytes).toBe(bytes.length);
    }
    expect(data.parts.find((p) => p.part === 'shell')?.pages).toEqual(['*']);
    // Only what runs in a browser: no server build.
    expect(data.parts.flatMap((p) => p.files.map((f) => f.file)).some((f) => f.startsWith('server/'))).toBe(false);
    expect(data.thirdParty).toEqual([expect.objectContaining({ url: 'https://www.googletagmanager.com/gtm.js?id=GTM-OPSTEST' })]);
    expect(data.policy).toMatch(/^default-src 'self'; script-src 'self' https:\/\/cdn\.example/);
    expect((await call('/inventory')).status).toBe(401);
  });
});
