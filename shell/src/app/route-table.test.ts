import { describe, expect, it } from 'vitest';
import type { AreaRelease } from '../areas/registry.ts';
import { routeForPath, setRouteTable } from './route-table.ts';

const release = (version: string, routes: AreaRelease['routes']): AreaRelease => ({
  version,
  entry: `remotes/content/${version}/remoteEntry.js`,
  kernel: '3.0.0',
  exposes: [],
  routes,
});

describe('routeForPath', () => {
  it('ranks as the router does, and answers from the routes in force after they change', () => {
    setRouteTable({
      content: release('1', [
        { name: 'site', path: '/s/:site', module: './SitePage', layout: 'default' },
        { name: 'contact', path: '/s/kontakt', module: './ContactPage', layout: 'default' },
      ]),
    });
    expect(routeForPath('/s/kontakt')?.name).toBe('contact');
    expect(routeForPath('/s/o-nas')?.name).toBe('site');
    // Asked again: the same answer (kept), and the route object of the table in force.
    expect(routeForPath('/s/kontakt')?.module).toBe('./ContactPage');

    // A release that moves the contact page to its own module and drops the static pages.
    setRouteTable({ content: release('2', [{ name: 'contact', path: '/s/kontakt', module: './ContactPageV2', layout: 'checkout' }]) });
    expect(routeForPath('/s/kontakt')).toMatchObject({ name: 'contact', module: './ContactPageV2', layout: 'checkout', area: 'content' });
    expect(routeForPath('/s/o-nas')).toBeUndefined();
  });
});
