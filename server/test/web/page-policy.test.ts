/**
 * The Content-Security-Policy of the shop's pages (web/page-policy.ts over infra/http/security-headers.ts):
 * inline scripts and styles by hash only, no 'unsafe-inline' anywhere, Trusted Types required with
 * the shop's one policy, and Tag Manager admitted by its one file only on the pages where it may run.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyRegistry, localDirectoryStorage, REGISTRY_KEY } from '@shop/release';
import { shellHost } from '../../src/web/shell-host.ts';
import { areaStyleHashes, shellPagePolicyFor } from '../../src/web/page-policy.ts';
import { inlineStyleHashes, scriptHash, styleHash } from '../../src/infra/http/security-headers.ts';
import { pageHead } from '../../src/web/ssr/page-html.ts';
import { shellHostOptions } from '../helpers/shell-host-options.ts';

const originDir = mkdtempSync(join(tmpdir(), 'page-policy-'));
const shellDir = join(originDir, 'shells', 'shell', '1.0.0-a');
const SHELL_STYLE = ':root{--c:#9a3412}body{margin:0}';
const BOOT = 'import("/assets/boot.js")';
const app = Fastify();

beforeAll(async () => {
  mkdirSync(shellDir, { recursive: true });
  mkdirSync(join(originDir, 'builds'), { recursive: true });
  writeFileSync(
    join(shellDir, 'index.html'),
    `<html><head><!--shop-config--><style>${SHELL_STYLE}</style><script type="module">${BOOT}</script></head><body><div id="root"></div></body></html>`,
  );
  writeFileSync(join(shellDir, 'routes.json'), JSON.stringify({ routes: [] }));
  const routes = [
    { name: 'generate', path: '/generate', module: './OperatorPage', layout: 'checkout', noConsent: true },
    { name: 'checkout-cart', path: '/checkout/cart', module: './CartPage', layout: 'checkout' },
  ];
  const checkout = { version: '1.0.0-c', entry: 'remotes/checkout/1.0.0-c/remoteEntry.js', kernel: '3.0.0', exposes: [], routes };
  const registry = {
    ...emptyRegistry(),
    revision: 'r1',
    shell: { version: '1.0.0-a', dir: 'shells/shell/1.0.0-a', kernel: '3.0.0' },
    areas: { checkout },
  };
  writeFileSync(join(originDir, REGISTRY_KEY), JSON.stringify(registry));
  await shellHost(
    app,
    shellHostOptions({ storage: localDirectoryStorage(originDir), gtmId: 'GTM-PINNED1', integrity: null, serverRender: false }),
  );
  await app.ready();
});
afterAll(async () => {
  await app.close();
  rmSync(originDir, { recursive: true, force: true });
});

const policyOf = async (url: string) => {
  const response = await app.inject({ method: 'GET', url });
  const policy = response.headers['content-security-policy'] as string;
  return Object.fromEntries(policy.split('; ').map((directive) => [directive.split(' ')[0]!, directive.split(' ').slice(1)]));
};

describe("a page's policy", () => {
  it("admits the shell's inline script and style by their hashes, and nothing inline by keyword", async () => {
    const policy = await policyOf('/c/tehly');
    expect(policy['script-src']).toContain(scriptHash(BOOT));
    expect(policy['style-src']).toContain(styleHash(SHELL_STYLE));
    expect(policy['style-src']).toEqual(expect.arrayContaining(["'self'", 'https://cdn.example']));
    for (const sources of Object.values(policy)) {
      expect(sources).not.toContain("'unsafe-inline'");
      expect(sources).not.toContain("'unsafe-eval'");
      expect(sources).not.toContain("'unsafe-hashes'");
    }
  });

  it('requires Trusted Types for scripts, with the shop’s one policy and no duplicates', async () => {
    const policy = await policyOf('/');
    expect(policy['require-trusted-types-for']).toEqual(["'script'"]);
    expect(policy['trusted-types']).toEqual(['shop']);
  });

  it("admits Tag Manager's one file, not its host, on the shop's pages", async () => {
    for (const url of ['/', '/c/tehly', '/p/tehla', '/blog']) {
      const policy = await policyOf(url);
      expect(policy['script-src'], url).toContain('https://www.googletagmanager.com/gtm.js');
      expect(policy['script-src'], url).not.toContain('https://www.googletagmanager.com');
    }
  });

  it('never on the basket, the checkout, the payment or account pages, or a route without consent, however spelled', async () => {
    for (const url of [
      '/checkout/cart',
      '/checkout/contact',
      '/checkout/thankyou/abc',
      '/payment/success?order=x',
      '/account/login',
      '/account/profile',
      '/generate',
      '//checkout/cart',
      '/checkout/./cart',
      '/%63heckout/cart',
    ]) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.headers['content-security-policy'], url).not.toMatch(/googletagmanager|google-analytics|analytics\.google/);
    }
    // The operator console is no page of the shop (it lives on the operator origin): /ops answers 404 here.
    expect((await app.inject({ method: 'GET', url: '/ops' })).statusCode).toBe(404);
  });

  it("hashes a server render's area styles over exactly the text the head carries", () => {
    const styles = [
      { area: 'catalog', css: '.tile{color:#1c1917}' },
      { area: 'content', css: 'p::after{content:"</style><script>alert(1)</script>"}' },
    ];
    const head = pageHead({ meta: { title: 'Tehly' }, jsonLd: [], styles }, 'https://shop.example');
    expect(areaStyleHashes(styles)).toEqual(inlineStyleHashes(head.tags));
    const policy = shellPagePolicyFor(
      { scripts: [], styles: [] },
      { assetOrigin: 'https://cdn.example', tagManager: false, gateway: null, reportTo: false },
      { pathname: '/c/tehly', areaStyles: styles },
    );
    for (const hash of areaStyleHashes(styles)) expect(policy).toContain(hash);
  });
});
