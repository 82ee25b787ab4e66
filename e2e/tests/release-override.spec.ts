/**
 * A local override in Chromium: a team's local checkout build, served by `release override` on
 * loopback, is what the one browser holding the link gets (with the banner); another browser gets
 * the released version; the console lists it as local; a script changed after the link was made does
 * not run in that browser (the shell's Slovak message), and Ctrl+C revokes the link.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, expectPageErrors, test } from './fixtures.ts';
import { E2E_DATA_DIR } from '../playwright.config.ts';
import { repo } from './release-cli.ts';
import { OPS_URL, operatorSession } from './operator.ts';
import { brokenBasket, removeTempDirs, tempDir } from './release-helpers.ts';

test.afterAll(() => removeTempDirs());

const MARKER = 'Košík je prázdny – lokálna zostava';

/** A checkout team's release credential, made with the owner's command (its secret is printed once). */
function teamCredential(): string {
  const name = `e2e-lokal-${randomBytes(3).toString('hex')}`;
  const result = spawnSync(process.execPath, ['dist/release/credentials-cli.js', 'create', 'checkout', name], {
    cwd: join(repo, 'server'),
    encoding: 'utf8',
    env: { ...process.env, DATA_DIR: E2E_DATA_DIR, DATABASE_URL: '' },
  });
  expect(result.status, result.stderr).toBe(0);
  return result.stdout.split('\n')[1]!.trim();
}

/** A real checkout build whose empty basket says it is the local one. */
function localCheckoutBuild(): string {
  const dist = tempDir('checkout-local-');
  cpSync(join(repo, 'mf-checkout', 'dist'), dist, { recursive: true });
  const assets = join(dist, 'assets');
  const page = readdirSync(assets).find((file) => /^cart-page-.*\.js$/.test(file))!;
  const source = readFileSync(join(assets, page), 'utf8');
  const changed = source.replace('children:`Košík je prázdny`}', `children:\`${MARKER}\`}`);
  expect(changed).not.toBe(source);
  writeFileSync(join(assets, page), `${changed}\n/* e2e local ${process.pid} ${Date.now()} */\n`);
  return dist;
}

/** `release override checkout` serving `dist`; resolves with the link it printed. */
function override(dist: string, token: string): { child: ChildProcess; link: Promise<string>; output: () => string } {
  const child = spawn(process.execPath, ['dist/release/cli.js', 'override', 'checkout', '--dist', dist, '--server', OPS_URL], {
    cwd: join(repo, 'server'),
    env: { ...process.env, RELEASE_TOKEN: token, RELEASE_USER: 'e2e' },
  });
  let output = '';
  const link = new Promise<string>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const found = /local override link \(this browser only, until \S+\): (\S+)/.exec(output);
      if (found) resolve(found[1]!);
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.on('exit', (code) => reject(new Error(`release override ended (${code}): ${output}`)));
  });
  return { child, link, output: () => output };
}

test("a local override works for its browser and nobody else's; a script changed after the link does not run", async ({
  page,
  browser,
}) => {
  const dist = localCheckoutBuild();
  const served = override(dist, teamCredential());
  try {
    const link = await served.link;

    // Context A opens the link: its basket page is the local build, rendered in the browser, with the banner.
    await page.goto(link);
    const held = await page.goto('/checkout/cart');
    await expect(page.getByRole('heading', { level: 1, name: MARKER })).toBeVisible();
    // Not rendered by the server (it cannot reach this build), nor kept by any cache.
    expect(held!.headers()['x-page-cache']).toBeUndefined();
    expect(held!.headers()['cache-control']).toBe('private, no-cache');
    await expect(page.getByTestId('preview-banner')).toContainText('Skúšobná verzia: košík z localhost');
    await expect(page.getByTestId('preview-banner').getByRole('link', { name: 'Ukončiť náhľad' })).toBeVisible();

    // Context B, without A's cookie: the released version.
    const other = await browser.newContext();
    try {
      const elsewhere = await other.newPage();
      const released = await elsewhere.goto(page.url());
      expect(released!.headers()['x-page-cache']).toBeDefined();
      await expect(elsewhere.getByRole('heading', { level: 1, name: 'Košík je prázdny', exact: true })).toBeVisible();
      await expect(elsewhere.getByTestId('preview-banner')).toHaveCount(0);
    } finally {
      await other.close();
    }

    // The console's Náhľady lists it as a local build, with its loopback origin.
    const operator = await operatorSession();
    // Its session cookie as a header: the operator origin's `__Host-` cookie cannot be planted over http.
    const operators = await browser.newContext({ extraHTTPHeaders: { cookie: operator.cookie } });
    try {
      const consoleTab = await operators.newPage();
      await consoleTab.goto(`${OPS_URL}/ops`);
      await expect(consoleTab.getByTestId('ops-previews').getByTestId('ops-preview-local').first()).toContainText(
        /lokálna zostava z http:\/\/127\.0\.0\.1:\d+/,
      );
    } finally {
      await operators.close();
    }

    // A script of the local build changed after the link was made (one A has not loaded yet): not run.
    const assets = join(dist, 'assets');
    const payment = readdirSync(assets).find((file) => /^payment-page-.*\.js$/.test(file))!;
    appendFileSync(join(assets, payment), '\nwindow.__changedLocally = true;\n');
    const next = await page.context().newPage();
    const why = 'a script of the local build is changed after its link recorded its digest, so the browser refuses it';
    expectPageErrors(next, /Failed to find a valid digest in the 'integrity' attribute/, why);
    expectPageErrors(next, /AreaLoadError: Area checkout could not load/, why);
    const refused: string[] = [];
    next.on('console', (message) => {
      if (/integrity/i.test(message.text())) refused.push(message.text());
    });
    await next.goto('/payment/cancelled');
    await brokenBasket(next);
    expect(refused.join('\n')).toContain(payment);
    expect(await next.evaluate(() => (window as { __changedLocally?: boolean }).__changedLocally)).toBeUndefined();
  } finally {
    served.child.kill('SIGINT');
    await new Promise((resolve) => (served.child.exitCode !== null ? resolve(null) : served.child.once('exit', resolve)));
  }
  // Ctrl+C revoked the link: A's next page is the released version.
  expect(served.output()).toContain('link revoked');
  await page.goto('/checkout/cart');
  await expect(page.getByRole('heading', { level: 1, name: 'Košík je prázdny', exact: true })).toBeVisible();
});
