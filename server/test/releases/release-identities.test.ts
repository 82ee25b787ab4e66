/**
 * Who may release what (domains/releases/identities.repository.ts): an area team's credential releases, previews,
 * pins and rolls back its own area only; everything else is refused with 403 and, allowed or not,
 * every release action is in the append-only audit log. A signed-in operator does all, under its name.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCredential, revokeCredential } from '../../src/domains/releases/identities.repository.ts';
import {
  deploy,
  readHistory,
  localDirectoryStorage,
  packBuild,
  digestBuild,
  readSigningKey,
  signManifest,
  type SigningKey,
  hashBuild,
  signMoveRequest,
} from '@shop/release';
import { fakeAreaBuild, fakeShellBuild, tempDir } from '@shop/release/testing';
import { signInOperator, type SignedInOperator } from '../helpers/operator-session.ts';
import { startTestApi, type TestApi } from '../helpers/test-api.ts';
import { createTeamSigningKey, releaseKeys } from '../../src/domains/releases/release-keys.repository.ts';

let operator: SignedInOperator;
const origin = tempDir('release-identities-');
const storage = localDirectoryStorage(origin);
let api: TestApi;
let base = '';
let checkoutTeam = '';
/** The checkout team's signing key, made with its credential. */
let checkoutKey: SigningKey;

beforeAll(async () => {
  api = await startTestApi({
    operatorConsole: ({ db }) => ({ storage, publicUrl: 'https://shop.example', keys: releaseKeys(db) }),
  });
  base = api.opsUrl;
  for (const area of ['checkout', 'account']) {
    for (const marker of ['one', 'two']) {
      await deploy({
        storage,
        part: area as 'checkout',
        distDir: fakeAreaBuild(area, {
          marker,
          exposes: area === 'account' ? ['./LoginPage'] : ['./CartPage'],
          routes: area === 'account' ? [{ name: 'login', path: '/account/login', module: './LoginPage', layout: 'default' }] : undefined,
        }),
        packageVersion: '1.0.0',
        provenance: { who: 'seed' },
        init: true,
      });
    }
  }
  await deploy({ storage, part: 'shell', distDir: fakeShellBuild(), packageVersion: '1.0.0', provenance: { who: 'seed' } });
  operator = await signInOperator(api.db, base, 'dispecer');
  checkoutTeam = await createCredential(api.db, { name: 'ci-checkout', area: 'checkout' });
  checkoutKey = readSigningKey((await createTeamSigningKey(releaseKeys(api.db), 'ci-checkout', 'checkout')).privateKeyPem);
});
afterAll(async () => {
  await api?.close();
});

/** A team's credential as the Bearer token, or a signed-in operator's cookie. */
const call = (path: string, who: string | SignedInOperator, body: unknown = {}) =>
  fetch(`${base}/api/ops${path}`, {
    method: 'POST',
    headers: {
      ...(typeof who === 'string' ? { authorization: `Bearer ${who}` } : { cookie: who.cookie, origin: base }),
      'content-type': 'application/json',
    },
    body: JSON.stringify(body),
  });
const registryBytes = () => readFileSync(join(origin, 'builds', 'latest.json'), 'utf8');
const upload = async (area: string, token: string) => {
  const dir = fakeAreaBuild(area, { marker: `ci-${Date.now()}` });
  const { files } = await packBuild(dir);
  // Signed with the checkout team's key, as its CI does (for another area too: the credential is refused first).
  const manifest = signManifest(checkoutKey, {
    part: area as 'checkout',
    version: `1.0.0-${await hashBuild(dir)}`,
    files: await digestBuild(dir),
  });
  return call(`/releases/${area}/upload`, token, {
    packageVersion: '1.0.0',
    budgetBytes: null,
    who: 'pipeline',
    commit: 'abcdef123456',
    dirty: false,
    files,
    mode: 'live',
    manifest,
  });
};
const audit = async () => {
  const res = await fetch(`${base}/api/ops/audit`, { headers: { cookie: operator.cookie } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: { actor: string; action: string; part: string | null; allowed: boolean }[] }).data;
};

describe("an area team's release credential", () => {
  it('releases its own area, and the history and the audit log name it', async () => {
    const released = await upload('checkout', checkoutTeam);
    expect(released.status).toBe(200);
    expect((await readHistory(storage)).at(-1)).toMatchObject({
      part: 'checkout',
      action: 'deploy',
      who: 'ci-checkout (pipeline, upload)',
    });
    expect((await audit())[0]).toMatchObject({ actor: 'ci-checkout', action: 'upload', part: 'checkout', allowed: true });
    // Rolls it back, and pins it.
    // Its credential alone may not roll back: the rollback carries the team's signature.
    expect((await call('/releases/checkout/rollback', checkoutTeam, { reason: 'broken basket' })).status).toBe(403);
    const signed = signMoveRequest(checkoutKey, {
      baseRevision: null,
      command: { op: 'rollback', part: 'checkout', to: null },
      provenance: { who: 'ci-checkout' },
    });
    expect((await call('/releases/checkout/rollback', checkoutTeam, { reason: 'broken basket', signed })).status).toBe(200);
    expect((await readHistory(storage)).at(-1)).toMatchObject({ part: 'checkout', action: 'rollback', who: 'ci-checkout' });
    expect((await call('/releases/checkout/unpin', checkoutTeam)).status).toBe(200);
  });

  it('is refused with 403 for another area, for the operator pages and for pinning another area; nothing moves; each refusal is audited', async () => {
    const before = registryBytes();
    for (const [path, refused] of [
      ['/releases/account/rollback', () => call('/releases/account/rollback', checkoutTeam)],
      ['/releases/account/pin', () => call('/releases/account/pin', checkoutTeam)],
      ['/releases/account/upload', () => upload('account', checkoutTeam)],
      ['/releases', () => fetch(`${base}/api/ops/releases`, { headers: { authorization: `Bearer ${checkoutTeam}` } })],
      ['/audit', () => fetch(`${base}/api/ops/audit`, { headers: { authorization: `Bearer ${checkoutTeam}` } })],
    ] as const) {
      const res = await refused();
      expect(res.status, path).toBe(403);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('forbidden');
    }
    expect(registryBytes()).toBe(before);
    const refusals = (await audit()).filter((entry) => !entry.allowed);
    expect(refusals.map((entry) => `${entry.action} ${entry.part ?? '-'}`)).toEqual(
      expect.arrayContaining(['rollback account', 'pin account', 'upload account', 'read -']),
    );
    expect(refusals.every((entry) => entry.actor === 'ci-checkout')).toBe(true);
  });

  it('stops working once revoked, and its secret is stored only as a hash', async () => {
    const stored = await api.db.selectFrom('release_credentials').selectAll().execute();
    expect(JSON.stringify(stored)).not.toContain(checkoutTeam.slice(8, 40));
    expect(await revokeCredential(api.db, 'ci-checkout')).toBe(true);
    expect((await call('/releases/checkout/unpin', checkoutTeam)).status).toBe(401);
    expect((await audit()).some((entry) => entry.actor === 'owner' && entry.action === 'credential-revoke')).toBe(true);
  });
});

describe('a signed-in operator', () => {
  it("acts on every part, audited under the operator's name", async () => {
    expect((await call('/releases/account/pin', operator, { reason: 'night' })).status).toBe(200);
    expect((await call('/releases/account/unpin', operator)).status).toBe(200);
    expect((await audit())[0]).toMatchObject({ actor: 'dispecer', action: 'unpin', part: 'account', allowed: true });
    expect((await readHistory(storage)).at(-1)).toMatchObject({ part: 'account', action: 'unpin', who: 'dispecer' });
  });

  it('is no shared token: an unknown Bearer token opens nothing of /api/ops', async () => {
    const refused = await call('/releases/account/pin', 'operator-secret-token-for-identities');
    expect(refused.status).toBe(401);
    expect((await audit())[0]).not.toMatchObject({ action: 'pin', allowed: true });
  });
});
