import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render } from '@testing-library/react';
import { StandaloneRouting } from '@shop/shared-kernel/standalone';
import { ServerRenderContext, type ServerRender } from '@shop/shared-kernel/react';
import { keyOf } from '@shop/shared-kernel/rules';
import CategoryPage from './category-page.tsx';
import BrandPage from './brand-page.tsx';

afterEach(cleanup);

/** The loads a page asks for in its first render on the server, before any data has come. */
function askedFirst(page: React.JSX.Element, at: string, path: string): string[] {
  const asked: string[] = [];
  const server: ServerRender = { data: new Map(), collect: (key) => void asked.push(key) };
  render(
    <ServerRenderContext.Provider value={server}>
      <StandaloneRouting at={at} path={path}>
        {page}
      </StandaloneRouting>
    </ServerRenderContext.Provider>,
  );
  return asked;
}

describe('listing pages', () => {
  it('a category page asks for its products and filters with the category, not after it (one round trip, one render fewer)', () => {
    const asked = askedFirst(<CategoryPage />, '/c/murivo?page=2&sort=name&brands=3', '/c/:category');
    expect(asked).toContain(keyOf('GET /api/category/:url', { params: { url: 'murivo' } }));
    expect(asked).toContain(keyOf('GET /api/products', { query: { category: 'murivo', brands: '3', page: 2, sort: 'name' } }));
    expect(asked).toContain(keyOf('GET /api/products/facets', { query: { category: 'murivo', brands: '3' } }));
  });

  it('a brand page asks for its products and filters with the brand', () => {
    const asked = askedFirst(<BrandPage />, '/b/baumit', '/b/:brand');
    expect(asked).toEqual(
      expect.arrayContaining([
        keyOf('GET /api/brand/:url', { params: { url: 'baumit' } }),
        expect.stringMatching(/^GET \/api\/products\?/),
        expect.stringMatching(/^GET \/api\/products\/facets\?/),
      ]),
    );
  });
});
