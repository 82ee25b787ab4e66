/**
 * A released area's errors: a thrown error shows on /api/ops and in the console with its original
 * file, line and function (the server maps the stack with the release's own source maps), and no
 * source map any manifest in force lists is ever served, on either origin.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, expectPageErrors, test } from './fixtures.ts';
import { ASSET_PORT, SHOP_PORT } from '../playwright.config.ts';
import { origin, release, repo } from './release-cli.ts';
import { createOperator, OPS_URL, opsGet, operatorSession, signInFirstTime } from './operator.ts';
import { brokenBasket, changedCheckoutBuild, registry, removeTempDirs, resetCheckout, withBasket } from './release-helpers.ts';

test.afterAll(() => removeTempDirs());
test.afterEach(() => resetCheckout());

/** The signed manifest's files of a part version on the e2e origin. */
const manifestFiles = (prefix: string) =>
  Object.keys(
    (JSON.parse(readFileSync(join(origin, prefix, 'release-manifest.json'), 'utf8')) as { files: Record<string, unknown> }).files,
  );

test('a thrown error in a released area shows on /api/ops and in the console with its original file, line and function; no source map is ever served', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  await withBasket(page, request);
  release(['deploy', 'checkout', '--dist', changedCheckoutBuild('throws'), '--reason', 'basket heading throws']);
  const broken = registry().areas.checkout!.version;
  expectPageErrors(page, /basket page broken on purpose/, 'the released basket page throws on purpose');
  const reported = page.waitForResponse(
    (response) => response.url().endsWith('/api/telemetry') && (response.request().postData() ?? '').includes('"type":"error"'),
  );
  await page.goto('/checkout/cart');
  await brokenBasket(page);
  // The batch leaves within 5 s.
  expect((await reported).status()).toBe(204);
  const sent = JSON.parse((await reported).request().postData()!) as { events: { type: string; stack?: { url: string }[] }[] };
  // The browser sends the minified frames, by the released file's address.
  expect(sent.events.find((event) => event.type === 'error')!.stack?.[0]?.url).toContain(`/remotes/checkout/${broken}/assets/`);

  // An operator of its own, signed in on the operator origin with a second factor.
  const operator = await operatorSession();
  type Group = {
    route: string;
    topFrame: string;
    message: string;
    stack: { fn: string | null; file: string; line: number; mapped: boolean }[];
  };
  const groups = async () =>
    (
      (await (await opsGet(`/api/ops/client-errors?hours=1&area=checkout&version=${broken}`, operator)).json()) as {
        data: { groups: Group[] };
      }
    ).data.groups;
  await expect.poll(async () => (await groups()).length, { timeout: 10_000 }).toBeGreaterThan(0);
  const group = (await groups()).find((candidate) => candidate.message.includes('basket page broken on purpose'))!;
  // The basket page's heading in the checkout's source, in the function that renders it. The broken build
  // is the real one with the heading's expression replaced after it was built (its map is the real
  // build's), so a position inside the longer replacement maps to the heading's line or the next;
  // server/test/ops/client-error-stacks.test.ts maps an unchanged Vite build to the exact line.
  expect(group.stack[0]).toMatchObject({ fn: 'CartPage', file: 'src/pages/cart-page.tsx', mapped: true });
  const heading = readFileSync(join(repo, 'mf-checkout', 'src', 'pages', 'cart-page.tsx'), 'utf8')
    .split('\n')
    .findIndex((line) => line.includes('<h1>Košík</h1>'));
  expect([heading + 1, heading + 2]).toContain(group.stack[0]!.line);
  expect(group.topFrame).toMatch(/^CartPage \(src\/pages\/cart-page\.tsx:\d+:\d+\)$/);
  expect(group.route).toBe('checkout-cart');

  // The console shows the group where a team looks: part, version, the place in its code and the message.
  const consoleTab = await page.context().newPage();
  await signInFirstTime(consoleTab, createOperator());
  await consoleTab.goto(`${OPS_URL}/ops`);
  const shown = consoleTab.getByTestId('ops-client-errors').getByRole('listitem').filter({ hasText: broken });
  await expect(shown).toContainText(group.topFrame);
  await expect(shown).toContainText('basket page broken on purpose');
  await expect(shown).toContainText('stránka checkout-cart');

  // Every map the manifests of the parts in force list: 404 in the error shape on both origins.
  const inForce = registry();
  const parts = [
    { prefix: inForce.shell!.dir, shop: (map: string) => `/${map}` },
    ...Object.entries(inForce.areas).map(([area, release]) => ({
      prefix: `remotes/${area}/${release!.version}`,
      shop: (map: string) => `/remotes/${area}/${release!.version}/${map}`,
    })),
  ];
  let checked = 0;
  for (const part of parts) {
    const maps = manifestFiles(part.prefix).filter((file) => file.endsWith('.map'));
    expect(maps.length, part.prefix).toBeGreaterThan(0);
    for (const map of maps) {
      const urls = [`http://localhost:${SHOP_PORT}${part.shop(map)}`];
      if (part.prefix.startsWith('remotes/')) urls.push(`http://localhost:${ASSET_PORT}/${part.prefix}/${map}`);
      for (const url of urls) {
        const response = await fetch(url);
        expect(response.status, url).toBe(404);
        expect(((await response.json()) as { error: { code: string } }).error.code, url).toBe('not_found');
        checked += 1;
      }
    }
  }
  expect(checked).toBeGreaterThan(10);
});
