import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test, undecidedTest } from '../tests/fixtures.ts';
import { SHOP_PORT } from '../playwright.config.ts';
import { inlineScriptHashes, inlineStyleHashes, scriptHash, securityHeaders } from '../../server/src/infra/http/security-headers.ts';
import { shellInline, shellPagePolicyFor } from '../../server/src/web/page-policy.ts';
import { clusterState, type ClusterState } from './cluster-state.ts';

/**
 * The pages' Content-Security-Policy and security headers as shoppers get them at scale: through
 * nginx (its page cache in front) from either of two web servers (each with its page cache), on
 * PostgreSQL and Redis. Every test with the fixtures also fails on any policy violation in Chromium.
 */
let cluster: ClusterState;
test.beforeAll(() => {
  cluster = clusterState();
});

/**
 * The policy a server computes for the page at `path` (as shell-host.ts does): the inline scripts and
 * styles of the shell version in force (from its index.html on the origin), the page's import map and
 * the area styles its server render put in it, admitted by hash; Tag Manager's file where it may run.
 */
function computedPolicy(body: string, path: string): string {
  const registry = JSON.parse(readFileSync(join(cluster.dataDir, 'origin', 'builds', 'latest.json'), 'utf8')) as { shell: { dir: string } };
  const indexHtml = readFileSync(join(cluster.dataDir, 'origin', registry.shell.dir, 'index.html'), 'utf8');
  const importMap = /<script type="importmap">([\s\S]*?)<\/script>/.exec(body)?.[1];
  expect(importMap, 'the page names its scripts in an import map').toBeTruthy();
  const shell = shellInline(indexHtml);
  // The area styles as the page carries them: their hashes are the policy's besides the shell's.
  const areaStyles = inlineStyleHashes([...body.matchAll(/<style data-area="[^"]*">[\s\S]*?<\/style>/g)].map(([block]) => block).join(''));
  return shellPagePolicyFor(
    { scripts: shell.scripts, styles: [...shell.styles, ...areaStyles] },
    // The cluster is served over plain http: the policy reports through report-uri alone.
    { assetOrigin: cluster.assetUrl, tagManager: true, gateway: new URL(cluster.gatewayUrl).origin, reportTo: false },
    { pathname: new URL(path, 'http://shop.invalid').pathname, importMapHash: scriptHash(importMap!) },
  );
}

const scriptHashesOf = (policy: string) =>
  (/(?:^|; )script-src ([^;]*)/.exec(policy)?.[1] ?? '').split(' ').filter((source) => source.startsWith("'sha256-"));

/**
 * A link of the kind `prefix` on the page at `path`, as the browser shows it: a server render that ran
 * out of its budget (a busy machine) leaves the links to the browser, which still shows them.
 */
async function firstLink(page: Page, path: string, prefix: string): Promise<string> {
  await page.goto(path);
  const link = page.locator(`a[href^="${prefix}"]`).first();
  await expect(link, `a ${prefix} link on ${path}`).toBeAttached();
  return (await link.getAttribute('href'))!;
}

test('every page type answers through nginx with the policy the servers compute and the security headers', async ({ request, page }) => {
  const category = await firstLink(page, '/', '/c/');
  const product = await firstLink(page, category, '/p/');
  const post = await firstLink(page, '/blog', '/blog/clanok/');
  const expected = securityHeaders({ hsts: false });
  const scriptSets = new Set<string>();
  for (const path of ['/', category, product, '/checkout/cart', '/account/profile', post]) {
    const response = await request.get(path);
    expect(response.status(), path).toBe(200);
    const headers = response.headers();
    const policy = computedPolicy(await response.text(), path);
    expect(scriptHashesOf(policy).length).toBeGreaterThan(1);
    expect(headers['content-security-policy'], path).toBe(policy);
    expect(policy).not.toContain('unsafe-inline');
    expect(policy).toContain("require-trusted-types-for 'script'; trusted-types shop");
    // Tag Manager's file only where it may run (GTM_ID is set in the cluster).
    if (/^\/(checkout|account)/.test(path)) expect(policy, path).not.toContain('googletagmanager');
    else expect(policy, path).toContain('https://www.googletagmanager.com/gtm.js');
    scriptSets.add(scriptHashesOf(policy).join(' '));
    // Served over plain http: reports go by report-uri alone, no Reporting API endpoint.
    expect(headers['reporting-endpoints'], path).toBeUndefined();
    for (const [name, value] of Object.entries(expected)) expect(headers[name], `${name} on ${path}`).toBe(value);
    // Each web server on its own answers with the same policy as through nginx.
    for (const server of cluster.web) {
      const direct = await request.get(`${server}${path}`);
      expect(direct.headers()['content-security-policy'], `${server}${path}`).toBe(policy);
    }
  }
  // One release in force: every page type admits the same scripts (its styles and Tag Manager differ by page).
  expect(scriptSets.size).toBe(1);
});

test('a page kept by nginx and by the server page cache carries the same policy, whose hashes match its inline scripts', async ({
  request,
  page,
}) => {
  const category = await firstLink(page, '/', '/c/');
  // A fresh address: neither nginx nor a server has kept it yet.
  const path = `${await firstLink(page, category, '/p/')}?cache=${Date.now().toString(36)}`;
  const answers: { edge: string | undefined; page: string | undefined; policy: string | undefined }[] = [];
  for (let i = 0; i < 2; i++) {
    const response = await request.get(path);
    expect(response.status()).toBe(200);
    const headers = response.headers();
    const body = await response.text();
    const policy = computedPolicy(body, path);
    answers.push({ edge: headers['x-edge-cache'], page: headers['x-page-cache'], policy: headers['content-security-policy'] });
    expect(headers['content-security-policy']).toBe(policy);
    // Every inline script the browser would run is admitted by its hash.
    const hashes = inlineScriptHashes(body);
    expect(hashes.length).toBeGreaterThan(0);
    for (const hash of hashes) expect(scriptHashesOf(policy), `${hash} of the served body`).toContain(hash);
  }
  expect(answers.map((a) => a.edge)).toEqual(['MISS', 'HIT']);
  expect(answers[1]!.policy).toBe(answers[0]!.policy);
  // The server's page cache: the same address asked of one web server twice (the second kept).
  const server = cluster.web[0]!;
  const direct = [await request.get(`${server}${path}&direct`), await request.get(`${server}${path}&direct`)];
  expect(direct.map((r) => r.headers()['x-page-cache'])).toEqual(['miss', 'hit']);
  for (const response of direct) {
    const body = await response.text();
    expect(response.headers()['content-security-policy']).toBe(computedPolicy(body, path));
    expect(response.headers()['content-security-policy']).toBe(answers[0]!.policy);
    for (const hash of inlineScriptHashes(body)) expect(scriptHashesOf(answers[0]!.policy!)).toContain(hash);
  }
});

/** Home → a category → a product → into the basket → the basket, as a shopper clicks it. */
async function shopperJourney(page: Page) {
  await page.goto('/');
  await page.getByRole('region', { name: 'Kategórie' }).getByRole('link').first().click();
  await expect(page).toHaveURL(/\/c\//);
  await page.getByTestId('product-card').first().getByRole('link').click();
  await expect(page).toHaveURL(/\/p\//);
  await page.getByRole('button', { name: 'Pridať do košíka' }).click();
  await expect(page.getByTestId('basket-count')).toHaveText('1');
  await page.getByRole('link', { name: /Košík:/ }).click();
  await expect(page).toHaveURL(/\/checkout\/cart$/);
  await expect(page.getByTestId('basket-line')).toHaveCount(1);
}

test('a shopper who refused the cookies browses, fills and opens the basket without a policy violation', async ({ page }) => {
  await shopperJourney(page);
});

undecidedTest('a shopper who accepted the cookies browses, fills and opens the basket without a policy violation', async ({ page }) => {
  // No internet here: the tag manager the consent brings in is answered with an empty script.
  await page.route('https://www.googletagmanager.com/**', (route) => route.fulfill({ contentType: 'text/javascript', body: '' }));
  await page.goto('/');
  const notice = page.getByRole('dialog', { name: 'Súbory cookies' }).and(page.getByTestId('consent'));
  await notice.getByRole('button', { name: 'Prijať všetko' }).click();
  await expect(notice).toBeHidden();
  await expect(page.locator('script[src*="googletagmanager.com"]')).toHaveCount(1);
  await shopperJourney(page);
});

test.describe('framed by another site', () => {
  // The refused framing is the violation this test provokes.
  test.use({ expectedCspViolations: [[/frame-ancestors/], { scope: 'test' }] });

  test('the basket framed by another site through nginx does not render', async ({ page }) => {
    const other: Server = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(
        `<!doctype html><title>iný web</title><iframe id="shop" src="http://localhost:${SHOP_PORT}/checkout/cart" width="800" height="600"></iframe>`,
      );
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    try {
      const blocked: string[] = [];
      page.on('console', (message) => {
        if (/frame-ancestors|X-Frame-Options/i.test(message.text())) blocked.push(message.text());
      });
      await page.goto(`http://127.0.0.1:${(other.address() as { port: number }).port}`);
      await expect.poll(() => blocked.length).toBeGreaterThan(0);
      const frame = page.frames().find((f) => f !== page.mainFrame());
      expect(
        await frame
          ?.locator('text=Košík')
          .count()
          .catch(() => 0),
      ).toBe(0);
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
  });
});

test('the operator console answers on its own origin through nginx under its own policy; the shop answers 404 for it', async ({
  request,
}) => {
  const consolePage = await request.get(`${cluster.opsUrl}/ops`);
  expect(consolePage.status()).toBe(200);
  expect(consolePage.headers()['content-security-policy']).toContain("script-src 'self';");
  expect(consolePage.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
  for (const path of ['/ops', '/api/ops/releases', '/api/operator/redirects']) {
    expect((await request.get(path)).status(), `${path} through the shop's nginx`).toBe(404);
    for (const server of cluster.web) expect((await request.get(`${server}${path}`)).status(), `${server}${path}`).toBe(404);
  }
  expect((await request.get(`${cluster.opsUrl}/api/ops/releases`)).status()).toBe(401);
  expect((await request.get(`${cluster.opsUrl}/c/izolacie`)).status()).toBe(404);
});
