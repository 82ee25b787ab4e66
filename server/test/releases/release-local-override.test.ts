/**
 * Local overrides (release/src/local-override.ts, the override route in release-actions.ts, the page
 * host): a team's link to its local build of its own area, served from a loopback origin only, opened
 * by one browser, whose pages load that area from there with the script digests the link recorded
 * (in the import map), admit that one origin in their policy and are never kept by a shared cache;
 * every other browser gets the released version. Made and revoked in the audit log under the
 * credential's name, listed in Náhľady as local, revocable. On SQLite and PostgreSQL (DATABASE_URL).
 */
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localBuildOf, releaseIntegrity, type LocalBuild } from '@shop/release';
import { cartRoute, fakeAreaBuild } from '@shop/release/testing';
import { errorHandler } from '../../src/infra/http/error-handler.ts';
import { releaseKeys } from '../../src/domains/releases/release-keys.repository.ts';
import { releasePreviews } from '../../src/domains/releases/previews.repository.ts';
import { shellHost } from '../../src/web/shell-host.ts';
import { signedShop } from '../helpers/signed-shop.ts';
import type { TestApi } from '../helpers/test-api.ts';

const shop = signedShop();
const LOOPBACK = 'http://127.0.0.1:5999';
const pages = Fastify();
pages.setErrorHandler(errorHandler);
let api: TestApi;
let base = '';
let checkoutTeam = '';
let local: { version: string; build: LocalBuild };

beforeAll(async () => {
  ({ api, checkoutTeam } = await shop.start());
  // The shop's pages as server.ts serves them: signed versions, and the preview links the database keeps.
  const keys = releaseKeys(api.db);
  await pages.register(shellHost, {
    ...shop.hostOptions(releaseIntegrity({ storage: shop.storage, keys: () => keys.trusted() })),
    previews: releasePreviews(api.db),
  });
  base = await pages.listen({ port: 0, host: '127.0.0.1' });
  local = await localBuildOf('checkout', fakeAreaBuild('checkout', { marker: 'lokálna', routes: [cartRoute] }), '1.0.0', LOOPBACK);
});
afterAll(async () => {
  await pages.close();
  await shop.stop();
});

/** What the override command sends for `build` (its fields overridden by `change`). */
const bodyOf = (change: Record<string, unknown> = {}) => ({
  origin: local.build.origin,
  version: local.version,
  entry: local.build.entry,
  kernel: local.build.kernel,
  react: local.build.react,
  exposes: local.build.exposes,
  routes: local.build.routes,
  files: local.build.files,
  ...change,
});

type ErrorBody = { error: { code: string; message: string; refusal?: string } };

/** Asks for a link as the checkout team's credential (or another's). */
const ask = (area: string, body: unknown, bearer = checkoutTeam) => shop.ops(`/releases/${area}/override`, body, { bearer });

async function newLink(): Promise<{ id: string; token: string }> {
  const made = await ask('checkout', bodyOf());
  const answer = (await made.json()) as { data: { id: string; url: string } };
  expect(made.status, JSON.stringify(answer)).toBe(200);
  const url = new URL(answer.data.url);
  expect(url.origin + url.pathname).toBe('https://shop.example/preview');
  return { id: answer.data.id, token: url.searchParams.get('token')! };
}

const open = (token: string, cookie?: string) =>
  fetch(`${base}/preview?token=${token}`, { redirect: 'manual', headers: cookie ? { cookie } : {} });
const cookieOf = (response: Response) => response.headers.get('set-cookie')?.split(';')[0] ?? '';

/** A page as a browser with that cookie gets it: its policy, cache header, configuration and import map. */
async function page(cookie?: string) {
  const response = await fetch(`${base}/checkout/cart`, { headers: cookie ? { cookie } : {} });
  const html = await response.text();
  const config = JSON.parse(/<script type="application\/json" id="shop-config">(.*?)<\/script>/.exec(html)?.[1] ?? 'null') as {
    registry: { areas: { checkout: { version: string; entry: string } } };
    preview: { area: string; version: string; local?: string } | null;
  };
  const map = JSON.parse(/<script type="importmap">(.*?)<\/script>/.exec(html)?.[1] ?? '{"integrity":{}}') as {
    integrity: Record<string, string>;
  };
  return {
    policy: response.headers.get('content-security-policy') ?? '',
    cacheControl: response.headers.get('cache-control'),
    checkout: config.registry.areas.checkout,
    preview: config.preview,
    integrity: map.integrity,
  };
}
const directive = (policy: string, name: string) => policy.split('; ').find((part) => part.startsWith(`${name} `)) ?? '';

const localRows = () => api.db.selectFrom('release_previews').select('preview_id').where('local_origin', 'is not', null).execute();

describe('a local override link', () => {
  it('is refused for any origin but loopback, in the one error shape, and nothing is kept', async () => {
    const before = (await localRows()).length;
    for (const origin of [
      'https://evil.example',
      'http://192.168.1.20:5173',
      'http://127.0.0.1:5173/path',
      'http://127.0.0.1.evil.example:5173',
      'http://localhost',
      'https://127.0.0.1:5173',
      'http://127.0.0.1:0',
      'http://127.0.0.1:65536',
      'http://[::1]:5173',
    ]) {
      const refused = await ask('checkout', bodyOf({ origin }));
      expect(refused.status, origin).toBe(400);
      const body = (await refused.json()) as ErrorBody;
      expect(body.error.code).toBe('bad_request');
      expect(body.error.message).toContain('http://127.0.0.1:<port> alebo http://localhost:<port>');
    }
    expect(await localRows()).toHaveLength(before);
    // Each refusal is in the audit log under the credential's name, with why.
    const refusals = (await shop.auditRows()).filter((row) => row.action === 'override-link' && row.allowed === 0);
    expect(refusals.length).toBeGreaterThanOrEqual(9);
    expect(refusals[0]).toMatchObject({
      actor: 'ci-checkout',
      part: 'checkout',
      detail: expect.stringContaining('http://127.0.0.1:<port>'),
    });
  });

  it("is refused for another team's area (403, audited), and for a build the shop in force could not run", async () => {
    const other = await ask('account', bodyOf());
    expect(other.status).toBe(403);
    expect(((await other.json()) as ErrorBody).error.code).toBe('forbidden');
    expect(await shop.auditRows()).toEqual(
      expect.arrayContaining([expect.objectContaining({ actor: 'ci-checkout', action: 'override', part: 'account', allowed: 0 })]),
    );
    // The same checks a release of it would pass: the kernel contract of the shell in force, the route table, the listed scripts.
    const kernel = await ask('checkout', bodyOf({ kernel: '9.0.0' }));
    expect(kernel.status).toBe(422);
    expect(((await kernel.json()) as ErrorBody).error.refusal).toBe('incompatible_kernel');
    expect(await shop.auditRows()).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ action: 'override-link', allowed: 0, detail: expect.stringContaining('kernel 9.0.0') }),
      ]),
    );
    const reserved = await ask('checkout', bodyOf({ routes: [{ ...cartRoute, path: '/ops/cart' }] }));
    expect(((await reserved.json()) as ErrorBody).error.refusal).toBe('broken_build');
    const unlisted = await ask('checkout', bodyOf({ entry: 'elsewhere.js' }));
    expect(unlisted.status).toBe(422);
    const notScript = await ask('checkout', bodyOf({ files: { ...local.build.files, 'area.json': local.build.files['remoteEntry.js'] } }));
    expect(notScript.status).toBe(422);
    // Bounded before anything is read: too many files, a digest that is not one.
    const many = Object.fromEntries(Array.from({ length: 401 }, (_, index) => [`a${index}.js`, local.build.files['remoteEntry.js']]));
    expect((await ask('checkout', bodyOf({ files: many }))).status).toBe(400);
    expect((await ask('checkout', bodyOf({ files: { 'remoteEntry.js': { sha384: 'x'.repeat(65), size: 1 } } }))).status).toBe(400);
  });

  it('opens in one browser only: that browser loads the area from loopback with the recorded digests, any other the released version', async () => {
    const released = (await page()).checkout.version;
    const { token } = await newLink();
    const first = await open(token);
    expect(first.status).toBe(303);
    const mine = cookieOf(first);
    expect(mine).toMatch(/^__Host-shop_preview=/);

    const held = await page(mine);
    const entry = `${LOOPBACK}/remotes/checkout/${local.version}/remoteEntry.js`;
    expect(held.checkout).toMatchObject({ version: local.version, entry });
    expect(held.preview).toMatchObject({ area: 'checkout', version: local.version, local: LOOPBACK });
    // Every script of it named with the digest the link recorded: a byte changed since does not run.
    for (const [file, digest] of Object.entries(local.build.files))
      expect(held.integrity[`${LOOPBACK}/remotes/checkout/${local.version}/${file}`]).toBe(`sha384-${digest.sha384}`);
    // That one origin admitted for scripts (and for looking at a failed load), nothing else of it.
    expect(directive(held.policy, 'script-src')).toContain(LOOPBACK);
    expect(directive(held.policy, 'connect-src')).toContain(LOOPBACK);
    for (const name of ['style-src', 'img-src', 'font-src', 'frame-src', 'form-action'])
      expect(directive(held.policy, name)).not.toContain('127.0.0.1');
    expect(held.cacheControl).toBe('private, no-cache');

    // Any other browser: the released version, from the asset origin, and a policy without loopback.
    const other = await page();
    expect(other.checkout.version).toBe(released);
    expect(other.checkout.entry).not.toContain('127.0.0.1');
    expect(other.preview).toBeNull();
    expect(other.policy).not.toContain('127.0.0.1');
    expect(Object.keys(other.integrity).some((url) => url.includes('127.0.0.1'))).toBe(false);

    // The same link in another browser is refused; the browser holding it may open it again.
    const second = await open(token);
    expect(second.status).toBe(403);
    expect(await second.text()).toContain('už otvoril iný prehliadač');
    expect(cookieOf(await open(token, mine))).toBe(mine);
  });

  it('opened by several browsers at once goes to exactly one of them', async () => {
    const { token } = await newLink();
    const answers = await Promise.all(Array.from({ length: 6 }, () => open(token)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([303, 403, 403, 403, 403, 403]);
  });

  it("is made by an operator, under the operator's name", async () => {
    const made = await api.asOperator('POST', '/api/ops/releases/checkout/override', bodyOf());
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const operator = (await api.operator()).name;
    expect(await shop.auditRows()).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          actor: operator,
          action: 'override-link',
          allowed: 1,
          detail: expect.stringContaining(made.body.data.id),
        }),
      ]),
    );
  });

  it('is listed as local, revoked by the team (its browser back on the released version), both in the audit log under its name', async () => {
    const { id, token } = await newLink();
    const mine = cookieOf(await open(token));
    expect((await page(mine)).checkout.version).toBe(local.version);
    const listed = await api.ops('GET', '/api/ops/releases/previews', { token: checkoutTeam });
    expect(listed.body.data).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id, area: 'checkout', version: local.version, local: LOOPBACK, createdBy: 'ci-checkout' }),
      ]),
    );

    const revoked = await shop.ops(`/releases/previews/${id}/revoke`, {}, { bearer: checkoutTeam });
    expect(revoked.status).toBe(200);
    const after = await page(mine);
    expect(after.checkout.version).not.toBe(local.version);
    expect(after.policy).not.toContain('127.0.0.1');
    expect((await open(token, mine)).status).toBe(403);

    const rows = await shop.auditRows();
    expect(rows).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          actor: 'ci-checkout',
          action: 'override-link',
          part: 'checkout',
          allowed: 1,
          detail: expect.stringContaining(`${local.version} z ${LOOPBACK} (lokálna zostava, náhľad ${id})`),
        }),
        expect.objectContaining({
          actor: 'ci-checkout',
          action: 'preview-revoke',
          allowed: 1,
          detail: expect.stringContaining(`náhľad ${id} (${local.version}, lokálna zostava z ${LOOPBACK})`),
        }),
      ]),
    );
  });
});
