import { afterEach, describe, expect, it, vi } from 'vitest';
import { PageCache } from '../../src/web/ssr/page-cache.ts';

describe('the page cache of server-rendered pages', () => {
  afterEach(() => vi.useRealTimers());

  it('serves a page until its time is up, then renders anew', () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const cache = new PageCache(5000);
    cache.set('a', { status: 200, html: '<p>a</p>', policy: 'default-src none' });
    vi.setSystemTime(1_004_999);
    expect(cache.get('a')?.html).toBe('<p>a</p>');
    vi.setSystemTime(1_005_000);
    expect(cache.get('a')).toBeNull();
  });

  it('keeps at most its limit of pages, the oldest going first, and keeps nothing with no time', () => {
    const cache = new PageCache(60_000, 2);
    cache.set('a', { status: 200, html: 'a', policy: 'default-src none' });
    cache.set('b', { status: 404, html: 'b', policy: 'default-src none' });
    cache.set('c', { status: 200, html: 'c', policy: 'default-src none' });
    expect(cache.get('a')).toBeNull();
    expect(cache.get('b')?.status).toBe(404);
    expect(cache.get('c')?.html).toBe('c');
    const off = new PageCache(0);
    off.set('a', { status: 200, html: 'a', policy: 'default-src none' });
    expect(off.get('a')).toBeNull();
  });
});
