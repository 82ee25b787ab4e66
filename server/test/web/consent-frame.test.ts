import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { errorHandler } from '../../src/infra/http/error-handler.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConsentCookies } from '@shop/shared-kernel/rules';
import { shellHost } from '../../src/web/shell-host.ts';
import { emptyRegistry, REGISTRY_KEY, localDirectoryStorage } from '@shop/release';
import { shellHostOptions } from '../helpers/shell-host-options.ts';

const originDir = mkdtempSync(join(tmpdir(), 'consent-frame-'));
const shellDir = join(originDir, 'shells', 'shell', '1.0.0-a');
const app = Fastify();
// The real server's one error handler: a refusal here is thrown, as everywhere.
app.setErrorHandler(errorHandler);

beforeAll(async () => {
  mkdirSync(shellDir, { recursive: true });
  mkdirSync(join(originDir, 'builds'), { recursive: true });
  writeFileSync(join(shellDir, 'index.html'), '<html><head><!--shop-config--></head><body><div id="root"></div></body></html>');
  writeFileSync(join(shellDir, 'routes.json'), JSON.stringify({ routes: [] }));
  // The checkout area declares its document tools without consent.
  const routes = [
    { name: 'generate', path: '/generate', module: './OperatorPage', layout: 'checkout', noConsent: true },
    { name: 'pdf', path: '/pdf', module: './OperatorPage', layout: 'checkout', noConsent: true },
    { name: 'email', path: '/email', module: './OperatorPage', layout: 'checkout' },
  ];
  const checkout = {
    version: '1.0.0-c',
    entry: 'remotes/checkout/1.0.0-c/remoteEntry.js',
    kernel: '1.2.0',
    exposes: ['./OperatorPage'],
    routes,
  };
  const registry = {
    ...emptyRegistry(),
    revision: 'r1',
    shell: { version: '1.0.0-a', dir: 'shells/shell/1.0.0-a', kernel: '1.2.0' },
    areas: { checkout },
  };
  writeFileSync(join(originDir, REGISTRY_KEY), JSON.stringify(registry));
  await shellHost(app, shellHostOptions({ storage: localDirectoryStorage(originDir), integrity: null }));
  await app.ready();
});
afterAll(async () => {
  await app.close();
  rmSync(originDir, { recursive: true, force: true });
});

const page = (url: string, cookie?: string) => app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });

describe('the consent notice in the first frame', () => {
  it('is in the page for a visitor who has not decided, with both choices as a form that needs no script', async () => {
    const html = (await page('/c/tehly?page=2')).body;
    expect(html).toContain('data-testid="consent-first-frame"');
    expect(html).toContain('<h2 id="consent-first-title" class="consent__title">Súbory cookies</h2>');
    expect(html).toContain('<form method="post" action="/consent"');
    expect(html).toContain('<input type="hidden" name="back" value="/c/tehly?page=2">');
    expect(html).toMatch(/value="all"[^>]*>Prijať všetko</);
    expect(html).toMatch(/value="none"[^>]*>Odmietnuť všetko</);
  });

  it('is the same for every visitor, removed while the page is parsed once this browser has decided', async () => {
    const first = await page('/c/tehly');
    const decided = await page('/c/tehly', 'cookie_required=true; cookie_ga=true; cookie_ads=false; shop_session=abc');
    expect(decided.body).toBe(first.body);
    expect(first.headers['cache-control']).toBe('public, max-age=0, s-maxage=5, stale-while-revalidate=5');
    expect(first.headers.vary ?? '').not.toMatch(/cookie/i);
    // The script right after the notice, run on the cookies of a visitor who decided and of one who did not.
    const script = /<\/section><script>(.*?)<\/script>/.exec(first.body)?.[1];
    expect(script).toBeTruthy();
    const run = (cookie: string) => {
      let removed = false;
      const document = { cookie, currentScript: { previousElementSibling: { remove: () => (removed = true) } } };
      new Function('document', script!)(document);
      return removed;
    };
    expect(run('cookie_required=true; cookie_ga=false; cookie_ads=false')).toBe(true);
    expect(run('x=1; cookie_required=true')).toBe(true);
    expect(run('')).toBe(false);
    expect(run('cookie_ga=true; my_cookie_required=true')).toBe(false);
  });

  it("is absent on the document tools, the operators' page and the privacy page", async () => {
    expect((await page('/generate?order=1')).body).not.toContain('consent-first-frame');
    // The shell's own operators' page sets no tracking.
    expect((await page('/ops')).body).not.toContain('consent-first-frame');
    expect((await page('/pdf')).body).not.toContain('consent-first-frame');
    // A route of the same area without the flag has the notice.
    expect((await page('/email')).body).toContain('consent-first-frame');
    expect((await page('/s/ochrana-sukromia')).body).not.toContain('consent-first-frame');
  });

  it('escapes the path it sends back to', async () => {
    const html = (await page('/search/a%22b?q="><script>')).body;
    expect(html).not.toContain('"><script>');
  });
});

describe('POST /consent', () => {
  const post = (payload: string) =>
    app.inject({ method: 'POST', url: '/consent', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload });
  const choicesOf = (setCookie: string | string[] | undefined) =>
    parseConsentCookies(
      [setCookie ?? []]
        .flat()
        .map((cookie) => cookie.split(';')[0])
        .join('; '),
    );

  it('accept all sets the three cookies for a year and goes back to the page', async () => {
    const response = await post('choice=all&back=%2Fp%2Ftehla%3Fv%3D2');
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/p/tehla?v=2');
    expect(choicesOf(response.headers['set-cookie'])).toEqual({ cookie_required: true, cookie_ga: true, cookie_ads: true });
    for (const cookie of [response.headers['set-cookie'] ?? []].flat())
      expect(cookie).toMatch(/^cookie_\w+=true; Max-Age=31536000; Expires=[^;]+; Path=\/; SameSite=Lax$/);
  });

  it('reject all stores required only; another site is never the way back', async () => {
    const response = await post('choice=none&back=%2F%2Fevil.example%2F');
    expect(response.headers.location).toBe('/');
    expect(choicesOf(response.headers['set-cookie'])).toEqual({ cookie_required: true, cookie_ga: false, cookie_ads: false });
  });

  it("the way back is resolved against the shop's address: every spelling of another site lands on a shop page", async () => {
    // Raw form bodies: `%09` is a tab once the form is decoded, `%5C` a backslash.
    const tricks = [
      'back=/%09/example.org',
      'back=%2F%2509%2Fexample.org',
      'back=//example.org',
      'back=https://example.org',
      'back=https%3A%2F%2Fexample.org%2Fx',
      'back=/%5Cexample.org',
      'back=/%5C%09/example.org',
      'back=/%0A/example.org',
      'back=%5C%5Cexample.org',
      'back=/.//example.org',
      'back=/./%2F/example.org',
      'back=http:example.org',
      'back=javascript:alert(1)',
      'back=%20//example.org',
      `back=/${'a'.repeat(3000)}`,
    ];
    for (const body of tricks) {
      const response = await post(`choice=none&${body}`);
      expect(response.statusCode, body).toBe(303);
      const location = response.headers.location as string;
      // What a browser does with the Location: resolve it against the page that answered.
      expect(new URL(location, 'https://shop.example/consent').origin, `${body} → ${location}`).toBe('https://shop.example');
      expect(location, body).toMatch(/^\/(?!\/)[^\\\s]*$/);
    }
  });

  it('a way back on the shop is kept with its query, as the URL parser spells it', async () => {
    expect((await post('choice=none&back=%2Fc%2Ftehly%3Fpage%3D2')).headers.location).toBe('/c/tehly?page=2');
    expect((await post('choice=none&back=https%3A%2F%2Fshop.example%2Fblog%3Fpage%3D3')).headers.location).toBe('/blog?page=3');
    expect((await post('choice=none&back=%2Fhladat%3Fq%3D%C5%BElab')).headers.location).toBe('/hladat?q=%C5%BElab');
  });

  it('refuses anything else with the API error shape and sets nothing', async () => {
    const response = await post('choice=maybe');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: { code: 'bad_request', message: 'Vyberte, či cookies prijímate alebo odmietate.' } });
    expect(response.headers['set-cookie']).toBeUndefined();
  });
});
