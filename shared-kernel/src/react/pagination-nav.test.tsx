// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { StandaloneRouting } from '../standalone/index.ts';
import { PaginationNav } from './pagination-nav.tsx';

function renderAt(url: string, total: number) {
  const page = Number(new URL(url, 'http://x').searchParams.get('page') ?? '1');
  render(
    <StandaloneRouting at={url}>
      <PaginationNav page={page} total={total} />
    </StandaloneRouting>,
  );
}

afterEach(() => {
  cleanup();
  document.head.innerHTML = '';
});

describe('PaginationNav', () => {
  it('shows the current page ± 2 with prev/next links in the page and the head', () => {
    renderAt('/blog?page=5', 15 * 9);
    expect(screen.getAllByRole('link').map((link) => link.getAttribute('aria-label'))).toEqual([
      'Predchádzajúca strana',
      'Strana 3',
      'Strana 4',
      'Strana 6',
      'Strana 7',
      'Nasledujúca strana',
    ]);
    expect(screen.getByText('5').getAttribute('aria-current')).toBe('page');
    expect(document.head.querySelector('link[rel="prev"]')?.getAttribute('href')).toBe(`${window.location.origin}/blog?page=4`);
    expect(document.head.querySelector('link[rel="next"]')?.getAttribute('href')).toContain('/blog?page=6');
  });

  it('links page 1 without the page query and renders nothing for a single page', () => {
    renderAt('/blog?page=2', 20);
    expect(screen.getByRole('link', { name: 'Strana 1' }).getAttribute('href')).toBe('/blog');
    cleanup();
    renderAt('/blog', 15);
    expect(screen.queryByRole('navigation')).toBeNull();
  });
});
