import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { expect, expectPageErrors, failedLoad, test } from './fixtures.ts';
import { findVariants, moveOrder, signIn } from './checkout-helpers.ts';
import { createOperator, operatorSession, opsGet, signInFirstTime, type SignedIn } from './operator.ts';
import { E2E_DATA_DIR, SHOP_PORT } from '../playwright.config.ts';

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
    response.end(
      `<!doctype html><title>iný web</title><iframe id="shop" src="http://localhost:${SHOP_PORT}/checkout/cart" width="800" height="600"></iframe>`,
    );
  });
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  otherOrigin = `http://127.0.0.1:${(other.address() as { port: number }).port}`;
});
test.afterAll(async () => {
  await new Promise((resolve) => other.close(resolve));
});

test.describe('framed by another site', () => {
  // The refused framing is the violation this test provokes.
  test.use({ expectedCspViolations: [[/frame-ancestors/], { scope: 'test' }] });

  test('the basket framed by another site does not render', async ({ page }) => {
    const blocked: string[] = [];
    page.on('console', (message) => {
      if (/frame-ancestors|X-Frame-Options/i.test(message.text())) blocked.push(message.text());
    });
    await page.goto(otherOrigin);
    await expect.poll(() => blocked.length).toBeGreaterThan(0);
    const frame = page.frames().find((f) => f !== page.mainFrame());
    // The browser put its error page in the frame: nothing of the shop is there to click.
    expect(
      await frame
        ?.locator('text=Košík')
        .count()
        .catch(() => 0),
    ).toBe(0);
  });
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
    // Styles by hash only, and Trusted Types required with the shop's one policy.
    expect(headers['content-security-policy']).toMatch(/style-src 'self' http:\/\/localhost:\d+( 'sha256-[A-Za-z0-9+/=]+')+;/);
    expect(headers['content-security-policy']).not.toContain('unsafe-inline');
    expect(headers['content-security-policy']).toContain("require-trusted-types-for 'script'; trusted-types shop;");
    // Tag Manager's one file where it may run, nothing of it on the basket or the account (GTM_ID is set here).
    if (path === '/') expect(headers['content-security-policy']).toContain(' https://www.googletagmanager.com/gtm.js;');
    else if (/^\/(checkout|account)\//.test(path)) expect(headers['content-security-policy']).not.toContain('googletagmanager');
  }
});

test.describe('Trusted Types', () => {
  // The refusals this test provokes: a string given to an HTML sink, and a policy of another name.
  test.use({
    expectedCspViolations: [
      [
        /requires 'TrustedHTML' assignment|require-trusted-types-for blocked trusted-types-sink.*Element insertAdjacentHTML/,
        /TrustedTypePolicy named 'utok'|trusted-types blocked trusted-types-policy/,
      ],
      { scope: 'test' },
    ],
  });

  test("a page writes no string as HTML and makes no policy but the shop's own; the shop's content still shows", async ({ page }) => {
    await page.goto('/blog');
    await page.getByTestId('post-card').first().getByRole('link').first().click();
    // The post's body is HTML written through the shop's policy after a navigation in the page.
    await expect(page.locator('.cnt-post__body > *').first()).toBeVisible();
    const attempts = await page.evaluate(() => {
      const tried = (write: () => void) => {
        try {
          write();
          return 'written';
        } catch (error) {
          return (error as Error).name;
        }
      };
      const types = (window as unknown as { trustedTypes: { createPolicy(name: string, rules: object): unknown } }).trustedTypes;
      return {
        html: tried(() => document.body.insertAdjacentHTML('beforeend', '<img src=x onerror="window.__pwned=1">')),
        policy: tried(() => types.createPolicy('utok', { createHTML: (input: string) => input })),
      };
    });
    expect(attempts).toEqual({ html: 'TypeError', policy: 'TypeError' });
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
  });
});

/**
 * A script stored in a field the pages render as HTML. Blog posts (and CMS pages) have no editor
 * route: they come from the seed, so the post is written directly into the e2e server's SQLite
 * database. Their HTML is sanitised on write (the seed) and again when read (routes/content), so
 * the stored payload never reaches the page; the second step plays a missing sanitiser (the page's
 * body rewritten on its way to the browser, its headers untouched), and the policy is what stops it.
 */
const PAYLOAD = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>';
// Chromium's wording has changed between versions ("Refused to execute inline script", "Executing inline script violates");
// the fixture's line for the violation event names the directive.
const INLINE_HANDLER = /inline event handler|script-src-attr blocked inline/;
const INLINE_SCRIPT = /inline script|script-src-elem blocked inline/;

type CspGroup = { page: string; part: string; directive: string; blockedOrigin: string; count: number };
/** What the console reads, as a signed-in operator on the operator origin. */
async function cspGroups(operator: SignedIn): Promise<CspGroup[]> {
  const answer = await opsGet('/api/ops/csp-violations', operator);
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { data: { groups: CspGroup[] } }).data.groups;
}
const countOf = (groups: CspGroup[], directive: string) =>
  groups
    .filter((g) => g.page === 'content' && g.part === 'inline' && g.directive === directive && g.blockedOrigin === 'inline')
    .reduce((sum, g) => sum + g.count, 0);

/** The e2e server's database (better-sqlite3 from the API's dependencies). */
function shopDatabase() {
  const require = createRequire(join(import.meta.dirname, '..', '..', 'server', 'package.json'));
  const Database = require('better-sqlite3') as new (file: string) => {
    prepare(sql: string): { run(...values: unknown[]): unknown; get(...values: unknown[]): unknown };
    pragma(text: string): unknown;
    close(): void;
  };
  const db = new Database(join(E2E_DATA_DIR, 'shop.sqlite'));
  db.pragma('busy_timeout = 5000');
  return db;
}

test.describe('a script stored in a blog post', () => {
  // An array option is given as [value, options].
  test.use({ expectedCspViolations: [[INLINE_HANDLER, INLINE_SCRIPT], { scope: 'test' }] });

  test('never runs: the sanitiser drops it, and without the sanitiser the policy blocks it and the report reaches the console', async ({
    page,
  }) => {
    const slug = `vlozeny-skript-${Date.now().toString(36)}`;
    const db = shopDatabase();
    try {
      db.prepare('insert into blog_posts (slug, title, perex, content_html, published_at) values (?, ?, ?, ?, ?)').run(
        slug,
        'Článok s vloženým skriptom',
        'Skúška bezpečnostnej politiky.',
        `<p>Začiatok článku.</p>${PAYLOAD}<p>Koniec článku.</p>`,
        new Date().toISOString(),
      );
    } finally {
      db.close();
    }
    const reader = await operatorSession();
    const before = await cspGroups(reader);

    // As stored: the API sanitises the HTML it reads, so nothing of the payload is on the page.
    expectPageErrors(page, failedLoad(404, '/blog/clanok/x'), "the payload's image (src=x) is kept without its handler and has no file");
    await page.goto(`/blog/clanok/${slug}`);
    await expect(page.getByText('Koniec článku.')).toBeVisible();
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    await expect(page.locator('.cnt-post [onerror]')).toHaveCount(0);

    // Without the sanitiser: the stored body as it is, in the page the server sent, under its policy.
    const served: boolean[] = [];
    const policies: string[] = [];
    await page.route(
      (url) => url.pathname === `/blog/clanok/${slug}`,
      async (route) => {
        const response = await route.fetch();
        const html = (await response.text()).replace(/(Začiatok článku\.<\/p>)[\s\S]*?(<p>Koniec článku\.)/, `$1${PAYLOAD}$2`);
        served.push(html.includes(PAYLOAD));
        // The body is sent as it is now: no content-encoding of the original; the policy as the server sent it.
        const headers = Object.fromEntries(
          Object.entries(response.headers()).filter(([name]) => !/^(content-encoding|content-length)$/i.test(name)),
        );
        policies.push(headers['content-security-policy'] ?? '');
        await route.fulfill({ status: response.status(), headers, body: html });
      },
    );
    // Chromium treats a document the test fulfils as a public one: its requests to the loopback asset origin are refused.
    const fulfilled = "the page is the test's own copy (route.fulfill), so Chromium refuses its loopback requests";
    expectPageErrors(page, /loopback. address space|net::ERR_FAILED \(http:\/\/localhost:\d+\/remotes\/content\//, fulfilled);
    expectPageErrors(page, /AreaLoadError: Area content could not load/, fulfilled);
    await page.goto(`/blog/clanok/${slug}?bez-sanitizacie`);
    // The browser parsed both (the fixture checks it refused each); hydration may then redraw the post.
    expect(served).toEqual([true]);
    expect(policies).toHaveLength(1);
    expect(policies[0]).toMatch(
      /^default-src 'self'; script-src 'self' http:\/\/localhost:\d+( 'sha256-[A-Za-z0-9+/=]+')+.*; report-uri \/api\/csp-report$/,
    );
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();

    // Both blocks were reported: the handler (script-src-attr) and the script (script-src-elem).
    const reported = async (directive: string) => countOf(await cspGroups(reader), directive) - countOf(before, directive);
    await expect.poll(() => reported('script-src-attr'), { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
    await expect.poll(() => reported('script-src-elem'), { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();

    // The operator sees them in the console, under the content pages and inline code.
    await page.unrouteAll();
    await signInFirstTime(page, createOperator());
    await expect(page.getByRole('heading', { name: 'Porušenia bezpečnostnej politiky (CSP)' })).toBeVisible();
    await expect(page.getByTestId('ops-csp-summary')).toContainText('obsah a blog · vložený skript alebo štýl');
    await expect(page.getByTestId('ops-csp').getByRole('row').filter({ hasText: 'script-src-attr' }).first()).toContainText('obsah a blog');
  });
});

/**
 * A complaint's text is the shopper's own words, shown back on /account/complaints: as React text,
 * never as HTML, so the same payload is shown as written and nothing runs (no violation either).
 * Filed through the call the complaint form sends, by the demo customer, for a delivered order.
 */
test('a script in a complaint’s text is shown as text and never runs', async ({ page, request }) => {
  const login = await request.post('/api/account/login', { data: { email: 'zakaznik@example.sk', password: 'Heslo123!' } });
  const { token } = ((await login.json()) as { data: { token: string } }).data;
  const authorization = { authorization: `Bearer ${token}` };
  const [variant] = await findVariants(request, 1);
  const placed = await request.post('/api/orders', {
    headers: authorization,
    data: {
      idempotencyKey: `csp-complaint-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`,
      lines: [{ v_id: variant!.v_id, amount: 1 }],
      contact: {
        email: 'zakaznik@example.sk',
        phone: '0905 123 456',
        name: 'Ján Zákazník',
        billing: { street: 'Hlavná 5', city: 'Martin', zip: '036 01' },
        company: null,
        delivery: null,
      },
      shippingCode: 'courier',
      paymentCode: 'cod',
      couponCode: null,
      note: '',
      termsAccepted: true,
    },
  });
  expect(placed.status()).toBe(201);
  const order = ((await placed.json()) as { data: { order: { number: string; token: string } } }).data.order;
  await moveOrder(request, order.number, 'shipped');
  await moveOrder(request, order.number, 'delivered');
  const detail = await request.get(`/api/account/orders/${order.token}`, { headers: authorization });
  const itemId = ((await detail.json()) as { data: { lines: { itemId: number }[] } }).data.lines[0]!.itemId;
  const description = `Vrece bolo roztrhnuté. ${PAYLOAD}`;
  const filed = await request.post('/api/account/complaints', {
    headers: authorization,
    multipart: { orderToken: order.token, itemId: String(itemId), reason: 'damaged', description },
  });
  expect(filed.status()).toBe(201);

  // The browser's own session: the HttpOnly cookie of a sign-in (no token in the page).
  await signIn(page, request);
  await page.goto('/account/complaints');
  const shown = page.getByTestId('complaint').filter({ hasText: 'Vrece bolo roztrhnuté.' }).first();
  await expect(shown.locator('.acc-quote')).toHaveText(description);
  await expect(shown.locator('img:not([alt]), script')).toHaveCount(0);
  expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
});
