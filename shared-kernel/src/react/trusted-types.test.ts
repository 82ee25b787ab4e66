import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** A stand-in for the browser's factory: it remembers the policies made and, as Chromium does, refuses a second of a name. */
function fakeTrustedTypes() {
  const made: { name: string; rules: Record<string, (input: string) => string> }[] = [];
  return {
    made,
    createPolicy(name: string, rules: Record<string, (input: string) => string>) {
      if (made.some((policy) => policy.name === name)) throw new TypeError(`Policy with name "${name}" already exists.`);
      made.push({ name, rules });
      return { createHTML: rules.createHTML!, createScript: rules.createScript!, createScriptURL: rules.createScriptURL! };
    },
  };
}

const global = globalThis as { trustedTypes?: unknown; __SHOP__?: unknown };
let factory: ReturnType<typeof fakeTrustedTypes>;

beforeEach(() => {
  vi.resetModules();
  delete (globalThis as Record<symbol, unknown>)[Symbol.for('@shop/shared-kernel/trusted-types')];
  factory = fakeTrustedTypes();
  global.trustedTypes = factory;
  global.__SHOP__ = { gtmId: 'GTM-ABC123' };
});
afterEach(() => {
  delete global.trustedTypes;
  delete global.__SHOP__;
  delete (globalThis as Record<symbol, unknown>)[Symbol.for('@shop/shared-kernel/trusted-types')];
});

describe("the shop's one Trusted Types policy", () => {
  it('is made once per page, named as the pages’ policy admits it, whichever copy of the module asks first', async () => {
    const first = await import('./trusted-types.ts');
    first.trustedHtml('<p>a</p>');
    vi.resetModules();
    // Another part's copy of '/react' (each part bundles it).
    const second = await import('./trusted-types.ts');
    second.trustedJsonScript('{"a":1}');
    expect(factory.made.map((policy) => policy.name)).toEqual(['shop']);
  });

  it('admits sanitised content HTML and refuses what the sanitiser never lets through', async () => {
    const { trustedHtml } = await import('./trusted-types.ts');
    const article = '<h2>Murovanie</h2><p>Tehly <a href="https://example.sk/x">tu</a>.</p><img src="https://cdn.example/a.png" alt="">';
    expect(trustedHtml(article)).toBe(article);
    expect(trustedHtml('<p>onboard = nie je atribút</p>')).toBe('<p>onboard = nie je atribút</p>');
    for (const injected of [
      '<p>x</p><script>alert(1)</script>',
      '<img src=x onerror="alert(1)">',
      '<a href="javascript:alert(1)">x</a>',
      '<a href=" JavaScript:alert(1)">x</a>',
      '<p style="position:fixed">falošný formulár</p>',
      '<svg><script>alert(1)</script></svg>',
      '<form action="https://evil.example"><input name="card"></form>',
      '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
      '<style>body{display:none}</style>',
      '<object data="x"></object>',
    ])
      expect(() => trustedHtml(injected), injected).toThrow(/refused/);
  });

  it('admits only the configured container as a script address, and only JSON as a script text', async () => {
    const { trustedScriptUrl, trustedJsonScript, tagManagerScriptUrl } = await import('./trusted-types.ts');
    expect(trustedScriptUrl(tagManagerScriptUrl('GTM-ABC123'))).toBe('https://www.googletagmanager.com/gtm.js?id=GTM-ABC123');
    for (const other of [
      tagManagerScriptUrl('GTM-EVIL'),
      'https://www.googletagmanager.com/gtm.js?id=GTM-ABC123&l=x',
      'https://evil.example/gtm.js?id=GTM-ABC123',
      '/assets/x.js',
    ])
      expect(() => trustedScriptUrl(other), other).toThrow(/refused/);
    expect(trustedJsonScript('{"@type":"Product"}')).toBe('{"@type":"Product"}');
    expect(() => trustedJsonScript('alert(1)')).toThrow();
  });

  it('without a container configured admits no script address at all', async () => {
    global.__SHOP__ = { gtmId: null };
    const { trustedScriptUrl, tagManagerScriptUrl } = await import('./trusted-types.ts');
    expect(() => trustedScriptUrl(tagManagerScriptUrl('GTM-ABC123'))).toThrow(/refused/);
  });

  it('outside a browser with Trusted Types answers the string as it is (the server renders it)', async () => {
    delete global.trustedTypes;
    const { trustedHtml, trustedScriptUrl } = await import('./trusted-types.ts');
    expect(trustedHtml('<p>x</p>')).toBe('<p>x</p>');
    expect(trustedScriptUrl('https://x.example/a.js')).toBe('https://x.example/a.js');
  });
});
