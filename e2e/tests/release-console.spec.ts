/**
 * Releases on the operator console: two concurrent deploys of one area end consistently and a stale
 * lock does not block a rollback from the console, where versions are marked never to be served again
 * and the mark lifted; operators sign in with their own accounts and a second factor, each move in
 * the history under their name; a preview link opens in the first browser only and is revoked there.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { expect, expectPageErrors, failedLoad, test } from './fixtures.ts';
import { SHOP_PORT } from '../playwright.config.ts';
import { origin, release, repo } from './release-cli.ts';
import { createOperator, OPERATOR_COOKIE, OPS_URL, signInFirstTime } from './operator.ts';
import {
  changedCheckoutBuild,
  expectWorkingBasket,
  firstOperator,
  history,
  registry,
  removeTempDirs,
  resetCheckout,
  withBasket,
} from './release-helpers.ts';

test.afterAll(() => removeTempDirs());
test.afterEach(() => resetCheckout());

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
