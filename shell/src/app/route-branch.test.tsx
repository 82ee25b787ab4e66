import { describe, expect, it, vi } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import * as router from 'react-router';
import { createRoutesFromChildren, MemoryRouter, Outlet, Route, useParams, useRoutes, type RouteObject } from 'react-router';
import { createBranchMatcher } from './route-branch.ts';

vi.mock('react-router', async (actual) => {
  const module = await actual<typeof router>();
  return { ...module, matchRoutes: vi.fn(module.matchRoutes) };
});

function Page({ label }: { label: string }) {
  return <p>{`${label} ${JSON.stringify(useParams())}`}</p>;
}

function Layout({ name }: { name: string }) {
  return (
    <div data-layout={name}>
      <Outlet />
    </div>
  );
}

/** A tree shaped like the shop's: a root, layouts without paths, pages that compete for a path, a catch-all. */
function shopTree(label: string, pages: { path: string; layout: string }[]): RouteObject[] {
  return createRoutesFromChildren(
    <Route element={<Layout name="root" />}>
      {['default', 'checkout'].map((layout) => (
        <Route key={layout} element={<Layout name={layout} />}>
          {pages
            .filter((page) => page.layout === layout)
            .map((page) => (
              <Route key={page.path} path={page.path} element={<Page label={`${label}${page.path}`} />} />
            ))}
        </Route>
      ))}
      <Route element={<Layout name="fallback" />}>
        <Route path="*" element={<Page label={`${label} not found`} />} />
      </Route>
    </Route>,
  );
}

const PAGES = [
  { path: '/', layout: 'default' },
  { path: '/s/:site', layout: 'default' },
  { path: '/s/kontakt', layout: 'default' },
  { path: '/p/:slug', layout: 'default' },
  { path: '/c/:category/*', layout: 'default' },
  { path: '/checkout/cart', layout: 'checkout' },
];
// Paths of one shape after another (each a test of the key), encoded, in capitals, with a trailing slash, malformed.
const PATHS = [
  '/',
  '/x/y',
  '/s/obchodne-podmienky',
  '/s/kontakt',
  '/s/reklamacie',
  '/S/KONTAKT',
  '/s/kontakt/',
  '/p/tehla-porotherm-44',
  '/p/a%2Fb',
  '/%70/tehla',
  '/P/Tehla',
  '/p/tehla/navyse',
  '/c/hruba-stavba/murivo',
  '/c/hruba-stavba',
  '/c/p/s',
  '/checkout/cart',
  '/checkout/kontakt',
  '/neznama',
  '/p',
  '/s/',
  '/p/%E0%A4%A',
  '//p/x',
];

function Render({ routes }: { routes: RouteObject[] }) {
  return useRoutes(routes);
}

const html = (path: string, routes: RouteObject[]) =>
  renderToStaticMarkup(
    <MemoryRouter initialEntries={[path]}>
      <Render routes={routes} />
    </MemoryRouter>,
  );

describe('createBranchMatcher', () => {
  it('renders every path as the whole tree does: the same route, layouts and parameters, whatever was matched before', () => {
    const branchFor = createBranchMatcher();
    const table = {};
    for (const path of PATHS) {
      const tree = shopTree('v1', PAGES);
      const branch = branchFor(tree, path, table);
      expect(html(path, branch), path).toBe(html(path, tree));
      expect(branch, `${path}: one branch`).toHaveLength(1);
    }
    expect(html('/s/kontakt', shopTree('v1', PAGES)), 'the static path ranks before the parameter').toContain('v1/s/kontakt {}');
  });

  it("matches a shape of path once per table, and renders each render's own routes", () => {
    const branchFor = createBranchMatcher();
    const table = {};
    const matchRoutes = vi.mocked(router.matchRoutes);
    matchRoutes.mockClear();
    expect(html('/p/tehla', branchFor(shopTree('first', PAGES), '/p/tehla', table))).toContain(
      'first/p/:slug {&quot;slug&quot;:&quot;tehla&quot;}',
    );
    expect(matchRoutes).toHaveBeenCalledTimes(1);
    // The next render builds its routes anew (new elements, new props): those are the ones rendered.
    expect(html('/p/tehla', branchFor(shopTree('second', PAGES), '/p/tehla', table))).toContain('second/p/:slug');
    expect(html('/p/piesok', branchFor(shopTree('second', PAGES), '/p/piesok', table)), 'another path of the same shape').toContain(
      '{&quot;slug&quot;:&quot;piesok&quot;}',
    );
    expect(matchRoutes).toHaveBeenCalledTimes(1);

    // A new table (another release's routes): the path is matched again against it.
    const moved = PAGES.map((page) => (page.path === '/p/:slug' ? { path: '/p/:slug', layout: 'checkout' } : page));
    const page = html('/p/tehla', branchFor(shopTree('third', moved), '/p/tehla', {}));
    expect(page).toContain('data-layout="checkout"');
    expect(page).toContain('third/p/:slug');
    expect(matchRoutes).toHaveBeenCalledTimes(2);
  });

  it('keeps a bounded number of shapes, forgetting the oldest', () => {
    const branchFor = createBranchMatcher(2);
    const table = {};
    const matchRoutes = vi.mocked(router.matchRoutes);
    matchRoutes.mockClear();
    for (const path of ['/p/a', '/s/b', '/checkout/cart', '/checkout/cart', '/p/c']) branchFor(shopTree('v', PAGES), path, table);
    // /p/*, /s/*, /checkout/cart matched; the last kept; /p/* forgotten when it came, so matched again.
    expect(matchRoutes).toHaveBeenCalledTimes(4);
  });
});
