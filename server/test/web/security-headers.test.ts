/**
 * Every answer carries the security headers (infra/http/security-headers.ts): JSON calls, refusals, unknown
 * paths, pictures, even a malformed request answered by Node's parser. Browsers' reports of the
 * pages' Content-Security-Policy are read in both forms they are sent in and counted.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { securityHeaders } from '../../src/infra/http/security-headers.ts';
import { startTestApi, type TestApi } from '../helpers/test-api.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api?.close();
});

const expected = securityHeaders({ hsts: false });

describe('security headers', () => {
  it.each([
    ['a JSON call', 'GET', '/api/site', 200],
    ['a refusal', 'POST', '/api/account/login', 400],
    ['an unknown call', 'GET', '/api/nothing-here', 404],
    ['a wrong method', 'DELETE', '/api/site', 404],
    ['a picture', 'GET', '/media/p/1.svg', 200],
  ])('are on %s', async (_what, method, path, status) => {
    const res = await fetch(`${api.baseUrl}${path}`, {
      method,
      headers: method === 'POST' ? { 'content-type': 'application/json' } : {},
      body: method === 'POST' ? '{' : undefined,
    });
    expect(res.status).toBe(status);
    for (const [name, value] of Object.entries(expected)) expect(res.headers.get(name), name).toBe(value);
    expect(res.headers.get('strict-transport-security')).toBeNull();
  });

  it("are on what Node's parser refuses before any route (nosniff)", async () => {
    const { port } = new URL(api.baseUrl);
    const answer = await new Promise<string>((resolve) => {
      let text = '';
      const socket = connect(Number(port), '127.0.0.1', () => socket.write('GET /api/site HTTP/1.1\r\nHost: x\r\nBad Header: 1\r\n\r\n'));
      socket
        .setEncoding('latin1')
        .on('data', (chunk: string) => (text += chunk))
        .on('close', () => resolve(text));
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400/);
    expect(answer).toMatch(/x-content-type-options: nosniff/i);
  });

  it('say Strict-Transport-Security only for a shop reached over TLS', () => {
    expect(securityHeaders({ hsts: true })['strict-transport-security']).toMatch(/^max-age=\d+/);
  });
});

describe('Content-Security-Policy reports', () => {
  const metric = async () => {
    const text = (await api.metrics()).text;
    return Object.fromEntries([...text.matchAll(/^shop_csp_violations_total\{([^}]*)\} (\d+)/gm)].map((m) => [m[1], Number(m[2])]));
  };

  it('are counted per directive, page type and part, in the report-uri and the Reporting API forms', async () => {
    const legacy = await fetch(`${api.baseUrl}/api/csp-report`, {
      method: 'POST',
      headers: { 'content-type': 'application/csp-report' },
      body: JSON.stringify({
        'csp-report': {
          'document-uri': 'https://shop.example/checkout/cart',
          'effective-directive': 'script-src-elem',
          'blocked-uri': 'https://evil.example/x.js',
        },
      }),
    });
    expect(legacy.status).toBe(204);
    const modern = await fetch(`${api.baseUrl}/api/csp-report`, {
      method: 'POST',
      headers: { 'content-type': 'application/reports+json' },
      body: JSON.stringify([
        {
          type: 'csp-violation',
          url: 'https://shop.example/p/tehla',
          body: { documentURL: 'https://shop.example/p/tehla', effectiveDirective: 'script-src-elem', blockedURL: 'inline' },
        },
        { type: 'deprecation', body: {} },
      ]),
    });
    expect(modern.status).toBe(204);
    const counts = await metric();
    expect(counts['directive="script-src-elem",page="cart",part="external",source="external"']).toBe(1);
    expect(counts['directive="script-src-elem",page="product",part="inline",source="inline"']).toBe(1);
  });

  it('refuse a body past the limit and anything but JSON, in the error shape', async () => {
    const big = await fetch(`${api.baseUrl}/api/csp-report`, {
      method: 'POST',
      headers: { 'content-type': 'application/csp-report' },
      body: 'x'.repeat(20_000),
    });
    expect(big.status).toBe(413);
    const broken = await fetch(`${api.baseUrl}/api/csp-report`, {
      method: 'POST',
      headers: { 'content-type': 'application/csp-report' },
      body: '{',
    });
    expect(broken.status).toBe(400);
    expect(((await broken.json()) as { error: { code: string } }).error.code).toBe('bad_request');
  });
});
