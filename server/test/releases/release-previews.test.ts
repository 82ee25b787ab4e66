/**
 * Preview links (domains/releases/previews.repository.ts, web/preview-host.ts): made on /ops by an
 * operator or the area's team, opened by one browser only (the first), listed with who made them and
 * whether they were opened, revoked one by one (the browser gets the version in force from its next
 * page), ended by their browser for good, and bounded per area. On SQLite and PostgreSQL.
 */
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deploy, localDirectoryStorage } from '@shop/release';
import { errorHandler } from '../../src/infra/http/error-handler.ts';
import { createCredential } from '../../src/domains/releases/identities.repository.ts';
import { MAX_OPEN_PREVIEWS, releasePreviews, TooManyPreviews } from '../../src/domains/releases/previews.repository.ts';
import { shellHost } from '../../src/web/shell-host.ts';
import { cartRoute, fakeAreaBuild, fakeShellBuild, tempDir } from '@shop/release/testing';
import { startTestApi, type TestApi } from '../helpers/test-api.ts';
import { shellHostOptions } from '../helpers/shell-host-options.ts';

const storage = localDirectoryStorage(tempDir('release-previews-'));
const provenance = { who: 'seed' };
const giftRoute = { name: 'gift-cards', path: '/darcekove-poukazky', module: './GiftPage', layout: 'default' };
const shop = Fastify();
shop.setErrorHandler(errorHandler);
let api: TestApi;
let base = '';
let stable = '';
let previewed = '';
let accountVersion = '';
let checkoutTeam = '';

beforeAll(async () => {
  stable = (
    await deploy({
      storage,
      part: 'checkout',
      distDir: fakeAreaBuild('checkout', { routes: [cartRoute] }),
      packageVersion: '1.0.0',
      provenance,
      init: true,
    })
  ).version;
  accountVersion = (
    await deploy({
      storage,
      part: 'account',
      distDir: fakeAreaBuild('account', { marker: 'acc' }),
      packageVersion: '1.0.0',
      provenance,
      init: true,
    })
  ).version;
  await deploy({ storage, part: 'shell', distDir: fakeShellBuild(), packageVersion: '1.0.0', provenance });
  previewed = (
    await deploy({
      storage,
      part: 'checkout',
      distDir: fakeAreaBuild('checkout', { marker: 'preview', exposes: ['./CartPage', './GiftPage'], routes: [cartRoute, giftRoute] }),
      packageVersion: '1.0.0',
      provenance,
      mode: { kind: 'publish' },
    })
  ).version;
  api = await startTestApi({
    operatorConsole: {
      storage,
      publicUrl: 'https://shop.example',
      inventory: { tagManagerId: null, policy: { assetOrigin: 'https://cdn.example', tagManager: false, gateway: null, reportTo: true } },
    },
  });
  // The shop's pages, as server.ts serves them, over https (the cookie is `__Host-` and Secure).
  await shellHost(shop, shellHostOptions({ storage, previews: releasePreviews(api.db), integrity: null }));
  base = await shop.listen({ port: 0, host: '127.0.0.1' });
  checkoutTeam = await createCredential(api.db, { name: 'ci-checkout-previews', area: 'checkout' });
});
afterAll(async () => {
  await shop.close();
  await api?.close();
});

type Listed = { id: string; area: string; version: string; createdBy: string; openedAt: string | null };

/** A new link made on /ops (by the operator, or a team's credential); its token. */
async function newLink(area = 'checkout', version = previewed, team?: string): Promise<{ id: string; token: string }> {
  const made = await api.ops('POST', `/api/ops/releases/${area}/preview`, {
    json: { version },
    ...(team ? { token: team } : { cookie: (await api.operator()).cookie }),
  });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  const url = new URL(made.body.data.url as string);
  expect(url.origin + url.pathname).toBe('https://shop.example/preview');
  return { id: made.body.data.id as string, token: url.searchParams.get('token')! };
}

/** Opens a link as a browser would (with its cookie, if it has one). */
const open = (token: string, cookie?: string) =>
  fetch(`${base}/preview?token=${token}`, { redirect: 'manual', headers: cookie ? { cookie } : {} });
const cookieOf = (response: Response) => response.headers.get('set-cookie')?.split(';')[0] ?? '';

/** The checkout version a page is served with in a browser with that cookie. */
async function checkoutServed(cookie?: string): Promise<string> {
  const html = await (await fetch(`${base}/`, { headers: cookie ? { cookie } : {} })).text();
  const config = JSON.parse(/<script type="application\/json" id="shop-config">(.*?)<\/script>/.exec(html)?.[1] ?? 'null') as {
    registry: { areas: { checkout: { version: string } } };
  };
  return config.registry.areas.checkout.version;
}

const listed = async (team?: string): Promise<Listed[]> => {
  const answer = await api.ops('GET', '/api/ops/releases/previews', team ? { token: team } : { cookie: (await api.operator()).cookie });
  expect(answer.status).toBe(200);
  return answer.body.data as Listed[];
};

describe('a preview link', () => {
  it('opens in the first browser only: that browser gets the previewed version, any other the version in force', async () => {
    const { token } = await newLink();
    const first = await open(token);
    expect(first.status).toBe(303);
    const setCookie = first.headers.get('set-cookie')!;
    expect(setCookie).toMatch(/^__Host-shop_preview=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax; Secure$/);
    const mine = cookieOf(first);
    // The browser's own token, not the link's: a copy of the link is not a copy of the cookie.
    expect(mine).not.toContain(token);
    expect(await checkoutServed(mine)).toBe(previewed);
    expect(await checkoutServed()).toBe(stable);
    // Its page is this browser's alone: never kept by a shared cache.
    expect((await fetch(`${base}/`, { headers: { cookie: mine } })).headers.get('cache-control')).toBe('private, no-cache');

    // The same link in another browser: refused, with the way forward, and nothing set.
    const second = await open(token);
    expect(second.status).toBe(403);
    expect(await second.text()).toContain('už otvoril iný prehliadač');
    expect(second.headers.get('set-cookie')).toBeNull();
    // Nor does the link's token work as a cookie.
    expect(await checkoutServed(`__Host-shop_preview=${token}`)).toBe(stable);
    // The browser that holds it may open it again.
    const again = await open(token, mine);
    expect(again.status).toBe(303);
    expect(cookieOf(again)).toBe(mine);
  });

  it('opened by two browsers at once goes to exactly one of them', async () => {
    const { token } = await newLink();
    const answers = await Promise.all(Array.from({ length: 8 }, () => open(token)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([303, 403, 403, 403, 403, 403, 403, 403]);
  });

  it('is listed on /ops with who made it and whether it was opened, and revoked one by one', async () => {
    const one = await newLink();
    const two = await newLink();
    const [a, b] = [cookieOf(await open(one.token)), cookieOf(await open(two.token))];
    const before = await listed();
    const operatorName = (await api.operator()).name;
    for (const id of [one.id, two.id]) {
      expect(before.find((preview) => preview.id === id)).toMatchObject({
        area: 'checkout',
        version: previewed,
        createdBy: operatorName,
        openedAt: expect.any(String),
      });
    }
    const revoked = await api.asOperator('POST', `/api/ops/releases/previews/${one.id}/revoke`, { reason: 'hotovo' });
    expect(revoked.status).toBe(200);
    expect(revoked.body.data).toEqual({ id: one.id, area: 'checkout', version: previewed });
    // Its browser gets the version in force from its next page on; the other preview lasts.
    expect(await checkoutServed(a)).toBe(stable);
    expect(await checkoutServed(b)).toBe(previewed);
    expect((await open(one.token, a)).status).toBe(403);
    expect((await listed()).map((preview) => preview.id)).not.toContain(one.id);
    const again = await api.asOperator('POST', `/api/ops/releases/previews/${one.id}/revoke`, {});
    expect(again.status).toBe(404);
    expect(again.body.error.code).toBe('not_found');
    const audit = (await api.asOperator('GET', '/api/ops/audit')).body.data as {
      action: string;
      allowed: boolean;
      detail: string | null;
    }[];
    expect(audit).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          action: 'preview-revoke',
          allowed: true,
          detail: expect.stringContaining(`${one.id} (${previewed}): hotovo`),
        }),
        expect.objectContaining({ action: 'preview-link', allowed: true, detail: expect.stringContaining(two.id) }),
      ]),
    );
  });

  it("made, listed and revoked by a team's credential for its own area only", async () => {
    const own = await newLink('checkout', previewed, checkoutTeam);
    const other = await newLink('account', accountVersion);
    const seen = await listed(checkoutTeam);
    expect(seen.map((preview) => preview.id)).toContain(own.id);
    expect(seen.every((preview) => preview.area === 'checkout')).toBe(true);
    expect((await listed()).map((preview) => preview.id)).toContain(other.id);
    // Another area's preview is unknown to the team, and the attempt is audited as refused.
    const refused = await api.ops('POST', `/api/ops/releases/previews/${other.id}/revoke`, { json: {}, token: checkoutTeam });
    expect(refused.status).toBe(404);
    expect((await listed()).map((preview) => preview.id)).toContain(other.id);
    const audit = (await api.asOperator('GET', '/api/ops/audit')).body.data as { actor: string; action: string; allowed: boolean }[];
    expect(audit).toEqual(
      expect.arrayContaining([expect.objectContaining({ actor: 'ci-checkout-previews', action: 'preview-revoke', allowed: false })]),
    );
    expect(
      (await api.ops('POST', `/api/ops/releases/account/preview`, { json: { version: accountVersion }, token: checkoutTeam })).status,
    ).toBe(403);
    expect((await api.ops('POST', `/api/ops/releases/previews/${own.id}/revoke`, { json: {}, token: checkoutTeam })).status).toBe(200);
  });

  it('ended by its browser is over for good; unknown, expired and over-long tokens are refused', async () => {
    const { token } = await newLink();
    const mine = cookieOf(await open(token));
    const ended = await fetch(`${base}/preview?end=1`, { redirect: 'manual', headers: { cookie: mine } });
    expect(ended.status).toBe(303);
    expect(ended.headers.get('set-cookie')).toContain('Max-Age=0');
    expect(await checkoutServed(mine)).toBe(stable);
    expect((await open(token, mine)).status).toBe(403);

    const unknown = await open('A'.repeat(43));
    expect(unknown.status).toBe(403);
    expect(await unknown.text()).toContain('Odkaz na náhľad je neplatný');
    expect((await open('x'.repeat(101))).status).toBe(400);
    const previews = releasePreviews(api.db);
    const old = await previews.create({ area: 'checkout', version: previewed, by: 'test' }, new Date(Date.now() - 25 * 60 * 60_000));
    expect((await open(old.token)).status).toBe(403);
  });

  it('is in the script inventory while it lasts; one of a version gone from the origin is left out, and the inventory answers', async () => {
    await newLink();
    type Part = { part: string; version: string; state: string; pages: string[] };
    const inventory = async () => {
      const answer = await api.asOperator('GET', '/api/ops/inventory');
      expect(answer.status).toBe(200);
      return answer.body.data.parts as Part[];
    };
    expect(await inventory()).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ part: 'checkout', version: previewed, state: 'preview', pages: ['checkout-cart', 'gift-cards'] }),
      ]),
    );
    // A preview made before its version was pruned from the origin: served to nobody, listed nowhere.
    await releasePreviews(api.db).create({ area: 'account', version: '1.0.0-pruned0000', by: 'test' });
    expect((await inventory()).some((part) => part.version === '1.0.0-pruned0000')).toBe(false);
  });

  it(`lasts at most ${MAX_OPEN_PREVIEWS} at once per area, also when asked for all at once`, async () => {
    const previews = releasePreviews(api.db);
    const asked = await Promise.allSettled(
      Array.from({ length: MAX_OPEN_PREVIEWS + 10 }, () => previews.create({ area: 'content', version: '1.0.0-bound', by: 'test' })),
    );
    expect(asked.filter((result) => result.status === 'fulfilled')).toHaveLength(MAX_OPEN_PREVIEWS);
    const refusals = asked.filter((result): result is PromiseRejectedResult => result.status === 'rejected');
    expect(refusals).toHaveLength(10);
    expect(refusals.every((result) => result.reason instanceof TooManyPreviews)).toBe(true);
  });
});
