import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, expectPageErrors, failedLoad, test } from './fixtures.ts';
import { ASSET_PORT, E2E_DATA_DIR } from '../playwright.config.ts';
import { publishCheckout } from './tamper.ts';

const assetOrigin = `http://localhost:${ASSET_PORT}`;

// The browser checks only what a page's import map names. A version published for nobody (a preview)
// is named by no page: between its changed file and a browser stands the origin alone, which must
// refuse it by its canonical path and by every other spelling of that path.
test('a changed file asked for by any spelling of its path is refused by the origin, and the page runs none of it', async ({ page }) => {
  test.setTimeout(60_000);
  const marker = `canonical-paths ${Date.now()} ${'-'.repeat(40)}`;
  const version = publishCheckout(E2E_DATA_DIR, {}, marker);
  const file = join(E2E_DATA_DIR, 'origin', 'remotes', 'checkout', version, 'remoteEntry.js');
  // The entry's last line, a comment, becomes a script of the same length; its times are set back.
  const kept = mkdtempSync(join(tmpdir(), 'e2e-canonical-'));
  const backup = join(kept, 'remoteEntry.js');
  const before = statSync(file);
  copyFileSync(file, backup);
  const comment = `/* ${marker} */`;
  const script = ';window.__tampered = true;'.padEnd(comment.length, ' ');
  const text = readFileSync(file, 'utf8');
  expect(text.endsWith(`${comment}\n`)).toBe(true);
  writeFileSync(file, text.replace(comment, script));
  utimesSync(file, before.atime, before.mtime);
  expect(statSync(file).size).toBe(before.size);

  const at = `${assetOrigin}/remotes/checkout/${version}`;
  const spellings = [
    `${at}/remoteEntry.js`,
    `${assetOrigin}/remotes/checkout//${version}/remoteEntry.js`,
    `${assetOrigin}//remotes/checkout/${version}/remoteEntry.js`,
    `${at}//remoteEntry.js`,
    `${at}/./remoteEntry.js`,
    `${at}/assets/../remoteEntry.js`,
    `${at}/%2e/remoteEntry.js`,
    `${at}%2fremoteEntry.js`,
    `${at}%2FremoteEntry.js`,
    `${at}/remoteEntry%2ejs`,
    `${assetOrigin}/Remotes/checkout/${version}/remoteEntry.js`,
    `${at}/RemoteEntry.js`,
    `${at}/remoteEntry.js/`,
    `${at}\\remoteEntry.js`,
    `${at}/remoteEntry.js%00`,
  ];
  const why = 'the page asks for a changed file of a preview by each spelling of its path; the origin refuses every one';
  expectPageErrors(page, failedLoad(404, `/remotes/checkout/`), why);
  expectPageErrors(page, failedLoad(404, `/Remotes/checkout/`), why);
  expectPageErrors(page, failedLoad(404, `//remotes/checkout/`), why);
  const answered: { url: string; status: number }[] = [];
  page.on('response', (response) => {
    if (/\/remotes\/checkout\//i.test(response.url())) answered.push({ url: response.url(), status: response.status() });
  });
  // A page of its own on loopback (no policy, so nothing but the origin decides) loading each spelling as a
  // module script, and a control module beside it that shows the page does run modules.
  const html = `<!doctype html><title>spellings</title>
<script type="module" src="/control.js"></script>
${spellings.map((url) => `<script type="module" src="${url}"></script>`).join('\n')}`;
  const host = createServer((request, response) => {
    if (request.url === '/control.js')
      return response.writeHead(200, { 'content-type': 'text/javascript' }).end('window.__control = true;');
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
  });
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
  const hostUrl = `http://localhost:${(host.address() as AddressInfo).port}/`;
  try {
    await page.goto(hostUrl, { waitUntil: 'load' });
    await expect.poll(() => page.evaluate(() => (window as { __control?: boolean }).__control)).toBe(true);
    // Chromium resolves `.`, `..`, `%2e` and `\` before asking; whatever it asked for, the answer was a refusal.
    expect(answered.length).toBeGreaterThanOrEqual(8);
    expect(answered.filter((answer) => answer.status !== 404)).toEqual([]);
    expect(await page.evaluate(() => (window as { __tampered?: boolean }).__tampered)).toBeUndefined();
    // Each refusal is the shop's error shape, never the file.
    const direct = await page.request.get(`${assetOrigin}/remotes/checkout//${version}/remoteEntry.js`);
    expect(direct.status()).toBe(404);
    expect(await direct.json()).toEqual({ error: { code: 'not_found', message: expect.stringMatching(/^Súbor/) } });
  } finally {
    await new Promise((resolve) => host.close(resolve));
    copyFileSync(backup, file);
    utimesSync(file, before.atime, before.mtime);
    rmSync(kept, { recursive: true, force: true });
  }
  // Put back, its one spelling is sent again.
  expect((await page.request.get(`${at}/remoteEntry.js`)).status()).toBe(200);
});
