import { describe, expect, it } from 'vitest';
import { redirectKey, redirectTable, resolveRedirect, safeRedirectTarget } from './redirect-rules.ts';

describe('stored redirects', () => {
  it('match a path without its query, fragment, trailing slashes or percent-encoding', () => {
    expect(redirectKey('/akcia/')).toBe('/akcia');
    expect(redirectKey('/akcia?page=2#top')).toBe('/akcia');
    expect(redirectKey('/%C5%A1trk')).toBe('/štrk');
    expect(redirectKey('/')).toBe('/');
    expect(redirectKey('//evil.example/x')).toBeNull();
    expect(redirectKey('akcia')).toBeNull();
  });

  it('follow only paths of the shop and absolute http(s) URLs an operator set', () => {
    expect(safeRedirectTarget('/c/tehly')).toBe('/c/tehly');
    expect(safeRedirectTarget('/vypredaj?zlava=1')).toBe('/vypredaj?zlava=1');
    expect(safeRedirectTarget('/štrk')).toBe('/%C5%A1trk');
    expect(safeRedirectTarget('https://www.example.sk/katalog')).toBe('https://www.example.sk/katalog');
    for (const unsafe of [
      '//evil.example',
      '/\\evil.example',
      'javascript:alert(1)',
      'evil.example',
      'https://user:pw@evil.example/',
      '/a b',
      '',
    ]) {
      expect(safeRedirectTarget(unsafe), unsafe).toBeNull();
    }
  });

  it('send a visitor to the end of a chain, never round a loop, and leave unsafe entries out', () => {
    const table = redirectTable([
      { old_url: '/a', new_url: '/b/' },
      { old_url: '/b', new_url: '/c' },
      { old_url: '/x/', new_url: 'https://www.example.sk/x' },
      { old_url: '/loop-1', new_url: '/loop-2' },
      { old_url: '/loop-2', new_url: '/loop-1' },
      { old_url: '/self', new_url: '/self/' },
      { old_url: '/open', new_url: '//evil.example' },
      { old_url: '/with?query=1', new_url: '/c' },
    ]);
    expect(resolveRedirect(table, '/a?utm=x')).toBe('/c');
    expect(resolveRedirect(table, '/b')).toBe('/c');
    expect(resolveRedirect(table, '/x')).toBe('https://www.example.sk/x');
    expect(resolveRedirect(table, '/c')).toBeNull();
    expect(resolveRedirect(table, '/loop-1')).toBeNull();
    expect(resolveRedirect(table, '/self')).toBeNull();
    expect(resolveRedirect(table, '/open')).toBeNull();
    expect(resolveRedirect(table, '/with')).toBeNull();
  });
});
