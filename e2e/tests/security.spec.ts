import { createServer, type Server } from 'node:http';
import { test as plainTest } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { SHOP_PORT } from '../playwright.config.ts';

/**
 * What an attacker's page or script meets: the shop's pages refuse to be framed by another origin
 * (the basket's order button cannot be clickjacked), and every page answers with a policy that
 * admits only the scripts a release brought. Every other test also fails on any policy violation
 * (fixtures.ts), so the whole journey runs under the policy.
 */
let other: Server;
let otherOrigin: string;
test.beforeAll(async () => {
  // Another site, on another port of this machine: it frames the shop's basket.
  other = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html><title>iný web</title><iframe id="shop" src="http://localhost:${SHOP_PORT}/checkout/cart" width="800" height="600"></iframe>`);
  });
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  otherOrigin = `http://127.0.0.1:${(other.address() as { port: number }).port}`;
});
test.afterAll(async () => {
  await new Promise((resolve) => other.close(resolve));
});

// Without the fixtures' guard: the refused framing is the violation this test expects.
plainTest('the basket framed by another site does not render', async ({ page }) => {
  const blocked: string[] = [];
  page.on('console', (message) => {
    if (/frame-ancestors|X-Frame-Options/i.test(message.text())) blocked.push(message.text());
  });
  await page.goto(otherOrigin);
  await expect.poll(() => blocked.length).toBeGreaterThan(0);
  const frame = page.frames().find((f) => f !== page.mainFrame());
  // The browser put its error page in the frame: nothing of the shop is there to click.
  expect(await frame?.locator('text=Košík').count().catch(() => 0)).toBe(0);
});

test('every page answers with the policy and the security headers, also from the page cache', async ({ request }) => {
  for (const path of ['/', '/checkout/cart', '/account/login', '/s/kontakt', '/']) {
    const response = await request.get(path);
    const headers = response.headers();
    expect(headers['content-security-policy'], path).toMatch(/script-src 'self' http:\/\/localhost:\d+( 'sha256-[A-Za-z0-9+/=]+')+/);
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['x-frame-options']).toBe('DENY');
    expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(headers['permissions-policy']).toContain('geolocation=(self)');
  }
});
