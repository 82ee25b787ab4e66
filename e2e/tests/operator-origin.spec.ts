/**
 * An operator is signed in on the console (its own origin) in one tab; in another tab of the same
 * browser, a shop page where an area's code runs (/c/izolacie) runs a script that tries every
 * release and operator action it can reach: fetch with the cookie to the shop's origin and to the
 * operator origin (as JSON, and as the simple requests a page may send without asking), a form post,
 * and a navigation of a new window. None achieves anything: the shop answers 404, the page's policy
 * keeps its requests and its form to the shop (connect-src, form-action), and the operator origin
 * refuses another page's navigation even with the cookie (403). The registry, the redirects and the
 * order are as they were, and the audit log gains no allowed entry.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, expectPageErrors, test } from './fixtures.ts';
import { E2E_DATA_DIR } from '../playwright.config.ts';
import { findVariants } from './checkout-helpers.ts';
import { createOperator, OPERATOR_COOKIE, OPS_URL, signInFirstTime } from './operator.ts';

const registryBytes = () => readFileSync(join(E2E_DATA_DIR, 'origin', 'builds', 'latest.json'), 'utf8');
type AuditEntry = { at: string; actor: string; action: string; allowed: boolean };

// The shop page's requests and form to the operator origin are stopped by the page's own policy (the
// browser's console message, or the fixture's line for the violation event).
test.use({ expectedCspViolations: [[/Refused to connect|directive: "connect-src|connect-src blocked/, /form-action/], { scope: 'test' }] });

test('a shop page’s script with an operator signed in on the console achieves no release or operator action', async ({ page, request }) => {
  test.setTimeout(120_000);
  // A bank-transfer order the script would mark paid.
  const [variant] = await findVariants(request, 1);
  const placed = await request.post('/api/orders', {
    data: {
      idempotencyKey: `ops-origin-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`,
      lines: [{ v_id: variant!.v_id, amount: 1 }],
      contact: {
        email: 'utok@example.sk',
        phone: '0905 123 456',
        name: 'Ján Útočník',
        billing: { street: 'Hlavná 5', city: 'Martin', zip: '036 01' },
        company: null,
        delivery: null,
      },
      shippingCode: 'pickup',
      paymentCode: 'transfer',
      couponCode: null,
      note: '',
      termsAccepted: true,
    },
  });
  expect(placed.status(), await placed.text()).toBe(201);
  const order = ((await placed.json()) as { data: { order: { number: string; token: string } } }).data.order;

  // The operator, signed in with a second factor (a fresh code: release actions would be allowed to it).
  const operator = createOperator('utokom-nedotknuty');
  const consoleTab = page;
  await signInFirstTime(consoleTab, operator);
  const cookie = (await consoleTab.context().cookies(OPS_URL)).find((c) => c.name === OPERATOR_COOKIE)!;
  const asOperator = (path: string) => fetch(`${OPS_URL}${path}`, { headers: { cookie: `${OPERATOR_COOKIE}=${cookie.value}` } });
  const audit = async () => ((await (await asOperator('/api/ops/audit')).json()) as { data: AuditEntry[] }).data;
  const redirects = async () => JSON.stringify((await (await asOperator('/api/operator/redirects')).json()) as unknown);
  const [registryBefore, auditBefore, redirectsBefore] = [registryBytes(), await audit(), await redirects()];

  // The shop page, in another tab of the same browser: its script is an area's as far as the page knows.
  const shopTab = await consoleTab.context().newPage();
  await shopTab.goto('/c/izolacie');
  await expect(shopTab.getByRole('heading', { level: 1 })).toBeVisible();
  expectPageErrors(
    shopTab,
    /CORS|Failed to load resource|Failed to fetch/,
    "the page's script tries the operator's calls on purpose: each is refused",
  );

  const actions: { method: string; path: string; body: unknown }[] = [
    ...['rollback', 'pin', 'unpin', 'promote', 'abort'].map((action) => ({
      method: 'POST',
      path: `/api/ops/releases/content/${action}`,
      body: { reason: 'z cudzej stránky' },
    })),
    { method: 'POST', path: '/api/ops/releases/shell/pin', body: {} },
    { method: 'POST', path: '/api/ops/releases/content/preview', body: { version: '0.1.0-0000000000' } },
    { method: 'POST', path: '/api/ops/releases/content/upload', body: { packageVersion: '1.0.0', mode: 'live', who: 'x', files: {} } },
    { method: 'GET', path: '/api/ops/audit', body: null },
    { method: 'GET', path: '/api/ops/releases', body: null },
    { method: 'GET', path: '/api/ops/refunds', body: null },
    { method: 'GET', path: `/api/operator/orders/${order.number}`, body: null },
    { method: 'GET', path: `/api/operator/orders/${order.number}/email`, body: null },
    { method: 'POST', path: `/api/operator/orders/${order.number}/paid`, body: {} },
    { method: 'POST', path: `/api/operator/orders/${order.number}/state`, body: { state: 'cancelled' } },
    { method: 'POST', path: `/api/operator/orders/${order.number}/email`, body: {} },
    { method: 'POST', path: `/api/operator/orders/${order.number}/invoice`, body: {} },
    { method: 'POST', path: '/api/operator/complaints/1/state', body: { state: 'accepted' } },
    { method: 'POST', path: '/api/operator/payments/1/refunded', body: { note: 'z cudzej stránky' } },
    { method: 'PUT', path: '/api/operator/redirects', body: { old_url: '/checkout/cart', new_url: '/c/izolacie' } },
    { method: 'DELETE', path: '/api/operator/redirects?old_url=%2Fakcia', body: null },
    { method: 'DELETE', path: '/api/ops/session', body: {} },
    { method: 'POST', path: '/api/ops/second-factor', body: {} },
  ];

  const outcomes = await shopTab.evaluate(
    async ({ actions, opsUrl }) => {
      const attempt = async (url: string, init: RequestInit) => {
        try {
          const response = await fetch(url, { credentials: 'include', ...init });
          return response.type === 'opaque' ? 'opaque' : String(response.status);
        } catch {
          return 'blocked';
        }
      };
      const results: Record<string, string[]> = {};
      for (const { method, path, body } of actions) {
        const json = body === null ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
        const plain = body === null ? {} : { headers: { 'content-type': 'text/plain' }, body: JSON.stringify(body) };
        results[`${method} ${path}`] = [
          // The shop's own origin, as an area's code would call the API.
          await attempt(path, { method, ...json }),
          // The operator origin, as JSON (the browser asks first, and is told no).
          await attempt(`${opsUrl}${path}`, { method, ...json }),
          // The operator origin, as a request a page may send without asking (the answer unseen).
          await attempt(`${opsUrl}${path}`, { method: method === 'GET' ? 'GET' : 'POST', mode: 'no-cors', ...plain }),
        ];
      }
      // A form post to the operator origin, as a plain HTML form would.
      const form = document.createElement('form');
      form.method = 'POST';
      form.action = `${opsUrl}/api/ops/releases/content/pin`;
      form.enctype = 'text/plain';
      const field = document.createElement('input');
      field.name = '{"reason":"formular","x';
      field.value = '"}';
      form.append(field);
      document.body.append(form);
      form.submit();
      return results;
    },
    { actions, opsUrl: OPS_URL },
  );
  for (const [action, [onShop, asJson, asSimple]] of Object.entries(outcomes)) {
    expect(onShop, `${action} on the shop's origin`).toBe('404');
    expect(asJson, `${action} as JSON on the operator origin`).toBe('blocked');
    expect(asSimple, `${action} without asking`).toBe('blocked');
  }
  // The form never left the page (its policy), and the page is still the shop's.
  await expect.poll(() => shopTab.url()).toContain('/c/izolacie');

  // A navigation is not the page's request: a new window opened on the operator's reads carries the
  // cookie, and the operator origin refuses it (another page of the site asked).
  for (const path of ['/api/ops/audit', `/api/operator/orders/${order.number}`, '/api/ops/session']) {
    const opened = consoleTab.context().waitForEvent('page');
    await shopTab.evaluate((url) => void window.open(url, '_blank'), `${OPS_URL}${path}`);
    const popup = await opened;
    expectPageErrors(popup, /403/, 'the operator origin refuses a navigation another page opened, on purpose');
    await popup.waitForLoadState();
    const status = await popup.evaluate(
      () => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).responseStatus,
    );
    expect(status, path).toBe(403);
    expect(await popup.locator('body').textContent()).toContain('Požiadavka z inej stránky bola odmietnutá');
    await popup.close();
  }

  // Nothing moved: the registry, the redirects, the order; the operator is still signed in; no allowed entry was added.
  expect(registryBytes()).toBe(registryBefore);
  expect(await redirects()).toBe(redirectsBefore);
  const mine = await request.get(`/api/orders/${order.token}`);
  expect(((await mine.json()) as { data: { paymentStatus: string } }).data.paymentStatus).not.toBe('paid');
  const after = await audit();
  const added = after.filter(
    (entry) => !auditBefore.some((old) => old.at === entry.at && old.action === entry.action && old.actor === entry.actor),
  );
  expect(added.filter((entry) => entry.allowed)).toEqual([]);
  await consoleTab.reload();
  await expect(consoleTab.getByTestId('ops-operator')).toContainText(operator.name);
});
