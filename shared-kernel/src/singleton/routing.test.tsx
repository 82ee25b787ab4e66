// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { createStandaloneRouter, matchPath, StandaloneRoutes } from '../standalone/index.ts';
import { Link, Navigate, NavLink, RoutingProvider, useLocation, useParams, useSearchParams } from './routing.tsx';

afterEach(cleanup);

function Where() {
  const { pathname, search } = useLocation();
  const { product } = useParams();
  return <p data-testid="where">{`${pathname}${search} ${product ?? '-'}`}</p>;
}

describe('routing primitives', () => {
  it('a plain click on a Link navigates client-side; modified clicks and other origins are left to the browser', () => {
    const router = createStandaloneRouter([
      {
        path: '/',
        element: (
          <>
            <Link to="/p/tehla?v=2">Tehla</Link>
            <a href="#x">x</a>
          </>
        ),
      },
      { path: '/p/:product', element: <Where /> },
    ]);
    render(<StandaloneRoutes router={router} />);
    const link = screen.getByRole('link', { name: 'Tehla' });
    expect(link.getAttribute('href')).toBe('/p/tehla?v=2');
    expect(fireEvent.click(link, { ctrlKey: true })).toBe(true);
    expect(router.location.pathname).toBe('/');
    expect(fireEvent.click(link)).toBe(false);
    expect(screen.getByTestId('where').textContent).toBe('/p/tehla?v=2 tehla');
    expect(router.entries.map((entry) => entry.pathname)).toEqual(['/', '/p/tehla']);
  });

  it('does not intercept links to another origin', () => {
    const navigate = vi.fn();
    render(
      <RoutingProvider value={{ location: { pathname: '/', search: '', hash: '' }, params: {}, navigate }}>
        <Link to="https://example.sk/">Iný web</Link>
      </RoutingProvider>,
    );
    fireEvent.click(screen.getByRole('link'));
    expect(navigate).not.toHaveBeenCalled();
  });

  it('NavLink marks the current page, and sections below it unless `end`', () => {
    const router = createStandaloneRouter(
      [
        {
          path: '*',
          element: (
            <>
              <NavLink to="/blog" end>
                Všetky
              </NavLink>
              <NavLink to="/blog/rady">Rady</NavLink>
              <NavLink to="/">Domov</NavLink>
            </>
          ),
        },
      ],
      { initialEntry: '/blog/rady/strana' },
    );
    render(<StandaloneRoutes router={router} />);
    const current = () =>
      screen
        .getAllByRole('link')
        .filter((link) => link.getAttribute('aria-current') === 'page')
        .map((link) => link.textContent);
    expect(current()).toEqual(['Rady']);
    act(() => router.navigate('/blog'));
    expect(current()).toEqual(['Všetky']);
    expect(screen.getByRole('link', { name: 'Všetky' }).className).toBe('active');
  });

  it('Navigate replaces the entry; setSearchParams keeps the path', () => {
    function Listing() {
      const [params, setParams] = useSearchParams();
      return <button onClick={() => setParams({ page: '3', sort: 'name' })}>{params.get('page') ?? '1'}</button>;
    }
    const router = createStandaloneRouter(
      [
        { path: '/old', element: <Navigate to="/c/tehly" replace /> },
        { path: '/c/:category', element: <Listing /> },
      ],
      { initialEntry: '/old' },
    );
    render(<StandaloneRoutes router={router} />);
    expect(router.entries.map((entry) => entry.pathname)).toEqual(['/c/tehly']);
    fireEvent.click(screen.getByRole('button', { name: '1' }));
    expect(router.location).toEqual({ pathname: '/c/tehly', search: '?page=3&sort=name', hash: '' });
    expect(screen.getByRole('button').textContent).toBe('3');
  });

  it('matches path patterns with params and a catch-all', () => {
    expect(matchPath('/account/orders/:token', '/account/orders/abc%20d')).toEqual({ token: 'abc d' });
    expect(matchPath('/account/orders/:token', '/account/orders')).toBeNull();
    expect(matchPath('/', '/')).toEqual({});
    expect(matchPath('/blog/*', '/blog/a/b')).toEqual({});
    expect(matchPath('*', '/anything')).toEqual({});
  });

  it('tells a developer who forgot the provider', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(() => render(<Where />)).toThrow(/RoutingProvider/);
  });
});
