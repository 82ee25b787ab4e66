import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter, useLocation, useNavigate } from 'react-router';
import { configureApi } from '@shop/shared-kernel';
import { createFakeFetch, type FakeFetch } from '@shop/shared-kernel/testing';
import { loadRedirects, resetRedirects, useStoredRedirects } from './redirects.ts';

let fake: FakeFetch;
let go: (path: string) => void = () => undefined;

function Probe() {
  useStoredRedirects();
  const location = useLocation();
  const navigate = useNavigate();
  go = (path) => void navigate(path);
  return <p data-testid="at">{location.pathname + location.search}</p>;
}

beforeEach(() => {
  resetRedirects();
  fake = createFakeFetch();
  fake.on('GET /api/redirect/list', {
    body: {
      data: [
        { old_url: '/doprava-a-platba', new_url: '/s/doprava' },
        { old_url: '/stara-akcia/', new_url: '/akcia' },
        { old_url: '/akcia', new_url: '/vypredaj?zlava=1' },
      ],
    },
  });
  configureApi({ fetch: fake });
});
afterEach(() => cleanup());

const at = () => screen.getByTestId('at').textContent;

describe('stored redirects in the browser', () => {
  it('are checked on every route change from the list fetched once, a chain followed to its end', async () => {
    render(
      <MemoryRouter initialEntries={['/']}>
        <Probe />
      </MemoryRouter>,
    );
    await act(() => loadRedirects());
    act(() => go('/doprava-a-platba'));
    expect(at()).toBe('/s/doprava');
    act(() => go('/stara-akcia?utm=letak'));
    expect(at()).toBe('/vypredaj?zlava=1');
    act(() => go('/c/tehly'));
    expect(at()).toBe('/c/tehly');
    expect(fake.callsTo('GET /api/redirect/list')).toHaveLength(1);
  });

  it('send a visitor who reached an old path before the list arrived on once it does', async () => {
    render(
      <MemoryRouter initialEntries={['/doprava-a-platba/']}>
        <Probe />
      </MemoryRouter>,
    );
    expect(at()).toBe('/doprava-a-platba/');
    await act(() => loadRedirects());
    expect(at()).toBe('/s/doprava');
  });

  it('leave the page as it is when the list cannot be had', async () => {
    fake.on('GET /api/redirect/list', new TypeError('offline'));
    render(
      <MemoryRouter initialEntries={['/doprava-a-platba']}>
        <Probe />
      </MemoryRouter>,
    );
    await act(() => loadRedirects());
    expect(at()).toBe('/doprava-a-platba');
  });
});
