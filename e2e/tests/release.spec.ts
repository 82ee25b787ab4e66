/**
 * Releases as an operator and an area team live them, on the composed shop
 * with a filled basket that survives throughout: rollbacks that stay through
 * a restart, a canary aborted on its own, a page shipped by one area alone,
 * open tabs that follow within seconds, concurrent deploys and a stale lock.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { APIRequestContext, BrowserContext, Page } from '@playwright/test';
import { AxeBuilder } from '@axe-core/playwright';
import { expect, expectPageErrors, failedLoad, test } from './fixtures.ts';
import { ASSET_PORT, E2E_DATA_DIR, SHOP_PORT } from '../playwright.config.ts';
import { origin, release, repo } from './release-cli.ts';
import type { Registry, ReleaseMove } from '../../shared-kernel/src/contract/index.ts';
import { fillBasket, findVariants } from './checkout-helpers.ts';
import { createOperator, OPERATOR_COOKIE, OPS_URL, opsGet, operatorSession, signInFirstTime, type Operator } from './operator.ts';

type Move = ReleaseMove;
type OriginRegistry = Registry;

const stableCheckout = join(repo, 'mf-checkout', 'dist');
const registry = () => JSON.parse(readFileSync(join(origin, 'builds', 'latest.json'), 'utf8')) as OriginRegistry;
const history = () =>
  readFileSync(join(origin, 'builds', 'history.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Move);

/** Every build directory a test makes, removed after the file. */
const made: string[] = [];
test.afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
};

/** The owner's audited override: a version rolled back from (marked never to be served again) may be released again. */
function liftFloor(version: string) {
  const result = spawnSync(
    process.execPath,
    ['dist/release/credentials-cli.js', 'floor', 'checkout', version, '--lift', '--reason', 'e2e reset'],
    {
      cwd: join(repo, 'server'),
      encoding: 'utf8',
      env: { ...process.env, DATA_DIR: E2E_DATA_DIR, DATABASE_URL: '' },
    },
  );
  expect(result.status, result.stderr).toBe(0);
}

/** The checkout in force again as `npm start` published it: no pin, no canary (its floor lifted when a test rolled back from it). */
function resetCheckout() {
  const current = registry();
  if (current.canaries?.checkout) release(['abort', 'checkout']);
  const refused = /refused \(floored\): checkout (\S+) is marked/.exec(
    spawnSync(
      process.execPath,
      ['dist/release/cli.js', 'deploy', 'checkout', '--dist', stableCheckout, '--override-pin', '--origin', origin],
      {
        cwd: join(repo, 'server'),
        encoding: 'utf8',
        env: { ...process.env, RELEASE_USER: 'e2e' },
      },
    ).stderr,
  );
  if (!refused) return;
  liftFloor(refused[1]!);
  release(['deploy', 'checkout', '--dist', stableCheckout, '--override-pin']);
}

/** Builds made by one run of the file, so each changed build is a version of its own (a rolled-back one is never served again). */
let builds = 0;

/** A real checkout build whose basket heading is changed: `label` appended, or a render that throws. */
function changedCheckoutBuild(change: { label: string } | 'throws'): string {
  const dist = tempDir('checkout-next-');
  cpSync(stableCheckout, dist, { recursive: true });
  const assets = join(dist, 'assets');
  const page = readdirSync(assets).find(
    (file) => file.endsWith('.js') && readFileSync(join(assets, file), 'utf8').includes('Vyprázdniť košík'),
  )!;
  const source = readFileSync(join(assets, page), 'utf8');
  const heading = change === 'throws' ? '(()=>{throw new Error(`basket page broken on purpose`)})()' : `\`Košík – ${change.label}\``;
  const changed = source.replace('children:`Košík`}', `children:${heading}}`);
  expect(changed).not.toBe(source);
  writeFileSync(join(assets, page), `${changed}\n/* e2e build ${++builds} ${process.pid} */\n`);
  // The basket's frame is server-rendered: the same change in the server build, as a real build has it.
  const server = join(dist, 'server', 'entry.cjs');
  const serverSource = readFileSync(server, 'utf8');
  const serverChanged = serverSource.replace('children: "Košík" }', `children: ${heading} }`);
  expect(serverChanged).not.toBe(serverSource);
  writeFileSync(server, serverChanged);
  return dist;
}

/** The operator account `npm start` creates on a new shop, its password in the data directory. */
const firstOperator = (): Operator => ({ name: 'spravca', password: readFileSync(join(E2E_DATA_DIR, 'operator-password'), 'utf8').trim() });

async function withBasket(page: Page, request: APIRequestContext) {
  const [variant] = await findVariants(request, 1);
  await fillBasket(page, request, [{ v_id: variant!.v_id, amount: 2 }]);
  await expect(page.getByTestId('basket-line')).toHaveCount(1);
}

async function expectWorkingBasket(page: Page, heading = 'Košík') {
  await expect(page.getByRole('heading', { level: 1, name: heading, exact: true })).toBeVisible();
  await expect(page.getByTestId('basket-line')).toHaveCount(1);
}

const brokenBasket = (page: Page) =>
  expect(page.getByRole('heading', { level: 1, name: 'Košík a objednávka sa nepodarilo načítať' })).toBeVisible();

/** Puts a shopper in a canary bucket before the shop's scripts run (a new page's about:blank has no storage to write). */
const canaryBucketScript = (bucket: number) => {
  if (location.protocol.startsWith('http')) localStorage.setItem('shop:canary-bucket', String(bucket));
};

async function shopperContext(newContext: () => Promise<BrowserContext>, bucket: number): Promise<BrowserContext> {
  const context = await newContext();
  const url = `http://localhost:${SHOP_PORT}`;
  await context.addCookies(
    ['cookie_required=true', 'cookie_ga=false', 'cookie_ads=false'].map((pair) => ({
      name: pair.split('=')[0]!,
      value: pair.split('=')[1]!,
      url,
    })),
  );
  await context.addInitScript(canaryBucketScript, bucket);
  return context;
}

/** Restarts the e2e server as `npm start` would (serve.mjs: release what is new, then serve). */
async function restartServer() {
  const pid = Number(readFileSync(join(E2E_DATA_DIR, 'serve.pid'), 'utf8'));
  const up = () =>
    fetch(`http://localhost:${SHOP_PORT}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
  process.kill(pid, 'SIGUSR2');
  await expect.poll(up, { timeout: 10_000, intervals: [100] }).toBe(false);
  await expect.poll(up, { timeout: 60_000, intervals: [250] }).toBe(true);
}

/** URLs the browser downloaded from the network (not from its cache, not a 304). */
async function watchDownloads(page: Page) {
  const responses = new Map<string, string>();
  const fromCache = new Set<string>();
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  cdp.on('Network.requestServedFromCache', ({ requestId }) => fromCache.add(requestId));
  cdp.on('Network.responseReceived', ({ requestId, response }) => {
    if (!response.fromDiskCache && !response.fromPrefetchCache && !response.fromServiceWorker && response.status === 200)
      responses.set(requestId, response.url);
  });
  return () => [...responses].filter(([id]) => !fromCache.has(id)).map(([, url]) => url);
}

/** Goes home through the logo: after a release the shell makes this navigation a full page load. */
async function navigateHome(page: Page) {
  await page.getByRole('link', { name: 'Stavebniny Domov – úvodná stránka' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Všetko pre vašu stavbu na jednom mieste' })).toBeVisible();
}

test.afterEach(() => resetCheckout());

test('a rollback stays through a restart, and a second rollback without a version is refused', async ({ page, request }) => {
  test.setTimeout(120_000);
  await withBasket(page, request);
  const good = registry().areas.checkout!.version;

  release(['deploy', 'checkout', '--dist', changedCheckoutBuild('throws'), '--reason', 'new basket heading']);
  expectPageErrors(page, /basket page broken on purpose/, 'the released basket page throws on purpose');
  const bad = registry().areas.checkout!.version;
  await page.goto('/checkout/cart');
  await brokenBasket(page);

  expect(release(['rollback', 'checkout', '--reason', 'basket page throws'])).toContain(`pinned at ${good}`);
  expect(registry().pins?.checkout).toMatchObject({ version: good, by: 'e2e' });
  await page.goto('/checkout/cart');
  await expectWorkingBasket(page);

  // The open page's update stream and reports cannot reach the server while it restarts.
  expectPageErrors(page, /net::ERR_CONNECTION_REFUSED/, 'the server restarts under the open page on purpose');
  await restartServer();
  expect(registry().areas.checkout!.version).toBe(good);
  expect(release(['status'])).toMatch(/checkout\s+\S+.*PINNED by e2e \(basket page throws\)/);
  const moves = history().filter((move) => move.part === 'checkout');
  expect(moves.at(-1)).toMatchObject({ action: 'rollback', from: bad, to: good, reason: 'basket page throws', who: 'e2e' });
  expect(moves.at(-2)).toMatchObject({ action: 'deploy', to: bad, reason: 'new basket heading' });
  expect(moves.at(-2)!.commit).toMatch(/^[0-9a-f]{12}$/);

  expect(release(['rollback', 'checkout'], 2)).toContain('rollback_needs_version');
  expect(registry().areas.checkout!.version).toBe(good);
  await page.goto('/checkout/cart');
  await expectWorkingBasket(page);
});

test('a canary that throws is aborted on its own within a minute, and every shopper is back on the stable version', async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(120_000);
  const stableShopper = await (
    await shopperContext(() => browser.newContext({ locale: 'sk-SK', viewport: { width: 1280, height: 900 } }), 90)
  ).newPage();
  await page.context().addInitScript(canaryBucketScript, 10);
  await withBasket(page, request);
  await withBasket(stableShopper, request);
  const stable = registry().areas.checkout!.version;

  const started = Date.now();
  release(['deploy', 'checkout', '--dist', changedCheckoutBuild('throws'), '--canary', '50']);
  expectPageErrors(page, /basket page broken on purpose/, "the canary's basket page throws on purpose");
  const canary = registry().canaries!.checkout!.version;
  // While a canary runs, a page depends on the browser's side of it: no shared cache may keep it.
  expect((await request.get('/')).headers()['cache-control']).toBe('private, no-cache');
  // Bucket 10 < 50: the canary, which throws on the basket page; bucket 90: the stable version.
  // Three shoppers' visits are what the watchdog needs here: CANARY_MIN_VIEWS counts telemetry sessions,
  // so each load is a visit of its own (the session cookie goes first), and the next one starts only once
  // this page's view and error have been reported under its session (the batch leaves within 5 s).
  for (let load = 0; load < 3; load += 1) {
    await page.context().clearCookies({ name: 'shop_telemetry' });
    const reported = page.waitForResponse(
      (response) => response.url().endsWith('/api/telemetry') && (response.request().postData() ?? '').includes('"type":"error"'),
    );
    await page.goto('/checkout/cart');
    await brokenBasket(page);
    expect((await reported).status()).toBe(204);
  }
  await page.goto('/');
  for (let load = 0; load < 2; load += 1) {
    await stableShopper.goto('/checkout/cart');
    await expectWorkingBasket(stableShopper);
  }

  await expect.poll(() => registry().canaries?.checkout ?? null, { timeout: 60_000, intervals: [500] }).toBeNull();
  const abortedAfter = Date.now() - started;
  test.info().annotations.push({ type: 'canary aborted after', description: `${(abortedAfter / 1000).toFixed(1)} s` });
  expect(abortedAfter).toBeLessThan(60_000);
  expect(registry().areas.checkout!.version).toBe(stable);
  const abort = history()
    .filter((move) => move.part === 'checkout')
    .at(-1)!;
  expect(abort).toMatchObject({ action: 'abort', who: 'canary-watch', from: canary, to: stable });
  expect(abort.reason).toMatch(/automatic abort: client error rate 100\.0 % over \d+ page views/);
  // It names the canary's most reported error, its stack mapped with the canary's own source maps.
  expect(abort.reason).toMatch(
    /; most reported: "Error: basket page broken on purpose" at CartPage \(src\/pages\/cart-page\.tsx:\d+:\d+\) on checkout-cart, \d+ reports$/,
  );
  expect(release(['history', 'checkout'])).toContain('automatic abort');

  // The next page load of every shopper is the stable version, basket intact.
  await page.goto('/checkout/cart');
  await expectWorkingBasket(page);
  await stableShopper.goto('/checkout/cart');
  await expectWorkingBasket(stableShopper);
  await stableShopper.context().close();
});

test('an area ships a new page by deploying itself alone: it appears on the next navigation, no shell file is fetched again', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  await withBasket(page, request);
  expectPageErrors(page, failedLoad(404, '/darcekove-poukazky'), 'the page does not exist before the area ships it: a 404');
  await page.goto('/darcekove-poukazky');
  await expect(page.getByRole('heading', { level: 1, name: 'Ospravedlňujeme sa, táto stránka neexistuje' })).toBeVisible();
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Všetko pre vašu stavbu na jednom mieste' })).toBeVisible();

  const dist = tempDir('checkout-new-page-');
  const built = spawnSync(
    'pnpm',
    [
      '--filter',
      './mf-checkout',
      'exec',
      'vite',
      'build',
      '--config',
      'test-fixtures/vite.new-page.config.ts',
      '--outDir',
      dist,
      '--emptyOutDir',
    ],
    {
      cwd: repo,
      encoding: 'utf8',
    },
  );
  expect(built.status, built.stderr).toBe(0);
  const before = registry();
  // The shell loads its Web Vitals library once, a moment after the first load: a first fetch, not one
  // a release causes, so the watch starts after it.
  await expect
    .poll(() => page.evaluate(() => performance.getEntriesByType('resource').some((entry) => entry.name.includes('/vitals-library-'))))
    .toBe(true);
  const downloadedSince = await watchDownloads(page);
  release(['deploy', 'checkout', '--dist', dist, '--reason', 'gift cards page']);
  const after = registry();
  expect(after.shell).toEqual(before.shell);
  for (const area of ['catalog', 'account', 'content'] as const) expect(after.areas[area]).toEqual(before.areas[area]);
  expect(after.areas.checkout!.routes.map((route) => route.path)).toContain('/darcekove-poukazky');

  // The open tab hears of the release, so its next navigation is a full load with the new route table.
  await page.waitForTimeout(1500);
  const reloaded = page.waitForEvent('load');
  await navigateHome(page);
  await reloaded;
  await page.goto('/darcekove-poukazky');
  await expect(page.getByRole('heading', { level: 1, name: 'Darčekové poukážky' })).toBeVisible();
  await expect(page.getByTestId('gift-basket-lines')).toHaveText('Položky v košíku: 1');
  await page.getByRole('link', { name: 'Späť do košíka' }).click();
  await expectWorkingBasket(page);

  const downloaded = downloadedSince();
  expect(downloaded).toContain(`http://localhost:${ASSET_PORT}/${after.areas.checkout!.entry}`);
  expect(
    downloaded.filter(
      (url) => url.startsWith(`http://localhost:${SHOP_PORT}/assets/`) || /\/remotes\/(catalog|account|content)\//.test(url),
    ),
  ).toEqual([]);

  // Taken away the same way: the area's next release without the page.
  resetCheckout();
  await page.goto('/darcekove-poukazky');
  await expect(page.getByRole('heading', { level: 1, name: 'Ospravedlňujeme sa, táto stránka neexistuje' })).toBeVisible();
});

test('an open tab without focus events shows a rolled-back version on its first navigation within 5 s of the rollback', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  await withBasket(page, request);
  release(['deploy', 'checkout', '--dist', changedCheckoutBuild({ label: 'nová verzia' })]);
  await page.goto('/checkout/cart');
  await expectWorkingBasket(page, 'Košík – nová verzia');

  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  const heard: number[] = [];
  cdp.on('Network.eventSourceMessageReceived', ({ eventName }) => eventName === 'registry' && heard.push(Date.now()));

  release(['rollback', 'checkout']);
  const rolledBackAt = Date.parse(registry().updatedAt);
  // Nothing focuses the tab; the shopper navigates 4.5 s after the registry moved.
  await page.waitForTimeout(Math.max(0, rolledBackAt + 4500 - Date.now()));
  const reloaded = page.waitForEvent('load');
  await navigateHome(page);
  await reloaded;
  await page.getByRole('link', { name: /Košík:/ }).click();
  await expectWorkingBasket(page);
  expect(heard.length).toBeGreaterThan(0);
  const latency = heard[0]! - rolledBackAt;
  test.info().annotations.push({ type: 'tab heard of the rollback after', description: `${latency} ms` });
  expect(latency).toBeLessThan(5000);
});

test('two concurrent deploys of one area both end consistently; a stale lock does not block a rollback from the console', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  await withBasket(page, request);
  const start = registry().areas.checkout!.version;
  const movesBefore = history().length;
  const changed = changedCheckoutBuild({ label: 'súbeh' });
  const run = (args: string[]) =>
    new Promise<{ code: number; output: string }>((resolve) => {
      const child = spawn(process.execPath, ['dist/release/cli.js', ...args, '--origin', origin], {
        cwd: join(repo, 'server'),
        env: { ...process.env, RELEASE_USER: 'e2e' },
      });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.on('exit', (code) => resolve({ code: code ?? 1, output }));
    });
  // One builds the area from the working tree (into its own directory), one takes a ready build.
  const results = await Promise.all([run(['deploy', 'checkout']), run(['deploy', 'checkout', '--dist', changed])]);
  for (const result of results) expect(result.code, result.output).toBe(0);
  const moves = history()
    .slice(movesBefore)
    .filter((move) => move.part === 'checkout');
  expect(moves.length).toBeGreaterThanOrEqual(1);
  expect(moves[0]!.from).toBe(start);
  for (let index = 1; index < moves.length; index += 1) expect(moves[index]!.from).toBe(moves[index - 1]!.to);
  expect(registry().areas.checkout!.version).toBe(moves.at(-1)!.to);
  expect(readdirSync(join(origin, 'builds'))).not.toContain('.release.lock');
  expect(readdirSync(tmpdir()).filter((name) => name.startsWith('release-build-checkout-'))).toEqual([]);
  await page.goto('/checkout/cart');
  await expect(page.getByTestId('basket-line')).toHaveCount(1);

  // A release died holding the lock.
  const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  writeFileSync(
    join(origin, 'builds', '.release.lock'),
    JSON.stringify({ pid: Number(dead.stdout), host: hostname(), since: new Date().toISOString(), what: 'deploy checkout (crashed)' }),
  );

  const inForce = registry().areas.checkout!.version;
  const operator = createOperator('subeh');
  await signInFirstTime(page, operator);
  await expect(page.getByTestId('ops-lock')).toContainText('deploy checkout (crashed)');
  await expect(page.getByTestId('ops-lock')).toContainText('zastaraný');
  const row = page.locator('tr[data-part="checkout"]');
  await expect(row).toContainText(inForce);
  await expect(row).toContainText(/zobrazení, chybovosť|bez zobrazení/);
  // The version picker offers what the origin keeps; the default is where a rollback goes back to.
  // (none when the version in force was first released before every other one kept: then the operator picks).
  const picker = row.getByLabel('Cieľová verzia – Košík a objednávka');
  // Without a default (the version in force was first released before every other one kept), the operator
  // picks a version known to work: one of this test's own (the origin also keeps earlier tests' broken builds).
  const knownGood = [start, ...moves.map((move) => move.to)].filter((version) => version !== inForce);
  const target = (await picker.inputValue()) || knownGood[0]!;
  await picker.selectOption(target);
  await row.getByLabel('Dôvod – Košík a objednávka').fill('súbeh nasadení');
  const confirmation = new Promise<string>((resolve) =>
    page.once('dialog', (dialog) => {
      resolve(dialog.message());
      void dialog.accept();
    }),
  );
  await row.getByRole('button', { name: /Vrátiť späť/ }).click();
  expect(await confirmation).toContain(`na verziu ${target}`);
  await expect(page.getByRole('status')).toContainText(`${inForce} → ${target} (pripnuté)`);
  expect(registry().areas.checkout!.version).toBe(target);
  // The server's move takes no lock on the origin (the registry is in its database): the stale lock is
  // still shown, and the next release command breaks it.
  await expect(page.getByTestId('pin-checkout')).toContainText('súbeh nasadení');
  await expect(page.locator('.ops__history li').first()).toContainText('návrat');
  await expect(page.locator('.ops__history li').first()).toContainText('súbeh nasadení');
  await expect(page.locator('.ops__history li').first()).toContainText(operator.name);
  await page
    .getByTestId('pin-checkout')
    .getByRole('button', { name: /Odopnúť/ })
    .click();
  await expect(page.getByTestId('pin-checkout')).toHaveCount(0);
  expect(registry().pins?.checkout).toBeUndefined();

  // The version rolled back from is marked never to be served again: the console lists the mark, and the
  // operator lifts it and sets it again (each with a confirmation, each in the audit log).
  const floors = row.getByTestId('floors-checkout');
  await expect(floors).toContainText(inForce);
  page.once('dialog', (dialog) => void dialog.accept());
  await floors.getByRole('button', { name: `Zrušiť označenie ${inForce}` }).click();
  await expect(page.getByRole('status')).toContainText(`${inForce}: označenie zrušené`);
  await expect(row.getByRole('button', { name: `Zrušiť označenie ${inForce}` })).toHaveCount(0);
  await picker.selectOption(inForce);
  page.once('dialog', (dialog) => void dialog.accept());
  await row.getByRole('button', { name: /Označiť ako nepoužiteľnú/ }).click();
  await expect(page.getByRole('status')).toContainText(`${inForce}: označená ako nepoužiteľná`);
  await expect(floors).toContainText(inForce);
  await page.reload();
  await expect(page.getByTestId('ops-audit')).toContainText(
    `${operator.name} · zrušené označenie nepoužiteľnej verzie · checkout · ${inForce}`,
  );
  await expect(page.getByTestId('ops-audit')).toContainText(`${operator.name} · verzia označená ako nepoužiteľná · checkout · ${inForce}`);

  // Whichever version was picked, the shopper's basket is there.
  await page.goto('/checkout/cart');
  await expect(page.getByRole('heading', { level: 1, name: /^Košík/ })).toBeVisible();
  await expect(page.getByTestId('basket-line')).toHaveCount(1);
});

test('operators sign in on the console with their own accounts and a second factor: each rollback and unpin is in the history under its name; signing out ends the session', async ({
  page,
}) => {
  // Three sign-ins, two of them setting up the second factor.
  test.setTimeout(90_000);
  const start = registry().areas.checkout!.version;
  release(['deploy', 'checkout', '--dist', changedCheckoutBuild({ label: 'operátori' })]);
  const next = registry().areas.checkout!.version;
  expect(next).not.toBe(start);
  const second = createOperator('druhy-operator');

  // A wrong password is refused, and the refusal is announced.
  expectPageErrors(page, failedLoad(401, '/api/ops/session'), 'a wrong password is refused on purpose');
  await page.goto(`${OPS_URL}/ops`);
  await page.getByLabel('Meno', { exact: true }).fill('spravca');
  await page.getByLabel('Heslo', { exact: true }).fill('toto-nie-je-heslo');
  await page.getByRole('button', { name: 'Prihlásiť sa' }).click();
  await expect(page.getByRole('alert')).toHaveText('Nesprávne meno, heslo alebo kód z aplikácie.');
  await expect(page.getByLabel('Heslo', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(
    axe.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => violation.id),
  ).toEqual([]);

  // The first operator of a new shop, as README says: its password from the data directory, then the second factor.
  const first = await signInFirstTime(page, firstOperator());
  // The session is an HttpOnly `__Host-` cookie of the operator origin alone: nothing of it is in the page's reach.
  const session = (await page.context().cookies(OPS_URL)).find((cookie) => cookie.name === OPERATOR_COOKIE)!;
  expect(session).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/', secure: true, domain: 'localhost' });
  const reachable = await page.evaluate(() =>
    JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage }, cookie: document.cookie }),
  );
  expect(reachable).not.toContain(session.value);

  const row = page.locator('tr[data-part="checkout"]');
  await row.getByLabel('Cieľová verzia – Košík a objednávka').selectOption(start);
  page.once('dialog', (dialog) => void dialog.accept());
  await row.getByRole('button', { name: /Vrátiť späť/ }).click();
  await expect(page.getByRole('status')).toContainText(`${next} → ${start} (pripnuté)`);
  await expect(page.locator('.ops__history li').first()).toContainText('spravca');
  expect(history().at(-1)).toMatchObject({ part: 'checkout', action: 'rollback', who: 'spravca' });

  await page.getByRole('button', { name: 'Odhlásiť sa' }).click();
  await expect(page.getByLabel('Meno', { exact: true })).toBeVisible();
  const afterSignOut = await fetch(`${OPS_URL}/api/ops/releases`, { headers: { cookie: `${OPERATOR_COOKIE}=${session.value}` } });
  expect(afterSignOut.status).toBe(401);
  // From now on spravca signs in with a code: here one of its recovery codes (each works once).
  await page.getByLabel('Meno', { exact: true }).fill('spravca');
  await page.getByLabel('Heslo', { exact: true }).fill(firstOperator().password);
  await page.getByLabel('Kód z aplikácie').fill(first.recoveryCodes[0]!);
  await page.getByRole('button', { name: 'Prihlásiť sa' }).click();
  await expect(page.getByTestId('ops-operator')).toContainText('spravca');
  await page.getByRole('button', { name: 'Odhlásiť sa' }).click();

  await signInFirstTime(page, second);
  await page
    .getByTestId('pin-checkout')
    .getByRole('button', { name: /Odopnúť/ })
    .click();
  await expect(page.getByTestId('pin-checkout')).toHaveCount(0);
  await expect(page.locator('.ops__history li').first()).toContainText(second.name);
  expect(history().at(-1)).toMatchObject({ part: 'checkout', action: 'unpin', who: second.name });
  // Still signed in after a reload (the cookie), and the audit log names the operator too.
  await page.reload();
  await expect(page.getByTestId('ops-operator')).toContainText(second.name);
  await expect(page.getByTestId('ops-audit')).toContainText(`${second.name} · odopnutie · checkout`);
});

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
  // server/test/client-error-stacks.test.ts maps an unchanged Vite build to the exact line.
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

test('a preview link opens in the first browser only, is listed in the console and revoked there: that browser is back on the version in force', async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(90_000);
  await withBasket(page, request);
  const said = release(['deploy', 'checkout', '--dist', changedCheckoutBuild({ label: 'náhľad' }), '--preview', '--reason', 'e2e preview']);
  const link = /preview link \(this browser only\): (\S+)/.exec(said)?.[1];
  expect(link, said).toBeTruthy();
  const version = history()
    .reverse()
    .find((move) => move.part === 'checkout' && move.action === 'publish')!.to;

  // The shopper's browser that opens it first gets the previewed basket.
  await page.goto(link!);
  await page.goto('/checkout/cart');
  await expectWorkingBasket(page, 'Košík – náhľad');

  // The same link in another browser: refused with the way forward; that browser keeps the version in force.
  const other = await browser.newContext();
  try {
    const elsewhere = await other.newPage();
    expectPageErrors(elsewhere, failedLoad(403, '/preview'), 'a second browser opens a link the first one holds');
    expect((await elsewhere.goto(link!))!.status()).toBe(403);
    await expect(elsewhere.getByText('už otvoril iný prehliadač')).toBeVisible();
    await elsewhere.goto(`http://localhost:${SHOP_PORT}/checkout/cart`);
    await expect(elsewhere.getByRole('heading', { level: 1, name: 'Košík je prázdny' })).toBeVisible();
  } finally {
    await other.close();
  }

  // The operator finds it in the console (opened, by the release command's user) and revokes it.
  const operators = await browser.newContext();
  try {
    const consoleTab = await operators.newPage();
    await signInFirstTime(consoleTab, createOperator());
    const listed = consoleTab.getByTestId('ops-previews').getByRole('listitem').filter({ hasText: version });
    await expect(listed).toContainText('otvorený v prehliadači');
    consoleTab.once('dialog', (dialog) => void dialog.accept());
    await listed.getByRole('button', { name: /^Zrušiť náhľad/ }).click();
    await expect(consoleTab.getByRole('status').filter({ hasText: 'je zrušený' })).toBeVisible();
    await expect(listed).toHaveCount(0);
  } finally {
    await operators.close();
  }

  // That browser's next page is the version in force.
  await page.reload();
  await expectWorkingBasket(page);
});
