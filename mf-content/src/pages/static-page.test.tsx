import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { Component, type ReactNode } from 'react';
import { StandaloneRouting } from '@shop/shared-kernel/standalone';
import { configureApi } from '@shop/shared-kernel';
import StaticPage from './static-page.tsx';

const fetchMock = vi.fn();

function json(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

/** Stands in for the shell's area boundary: what the page throws ends here. */
class Boundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    return this.state.failed ? <p>Hranica: chyba</p> : this.props.children;
  }
}

function renderSlug(slug: string) {
  render(
    <Boundary>
      <StandaloneRouting at={`/s/${slug}`} path="/s/:site">
        <StaticPage />
      </StandaloneRouting>
    </Boundary>,
  );
}

beforeEach(() => {
  fetchMock.mockReset();
  configureApi({ fetch: fetchMock as unknown as typeof fetch });
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('StaticPage', () => {
  it('asks the API for the slug and shows the title as the heading and the HTML as content', async () => {
    fetchMock.mockResolvedValue(
      json(200, {
        data: { slug: 'kontakt', title: 'Kontakt', metaDescription: 'Kontakt na nás', contentHtml: '<h2>Predajňa</h2><p>Žilina</p>' },
      }),
    );
    renderSlug('kontakt');
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('Kontakt');
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('Predajňa');
    expect(String(fetchMock.mock.calls[0]?.[0])).toContain('/api/page/kontakt');
    // The title is set by an effect right after the page renders.
    await waitFor(() => expect(document.title).toBe('Kontakt | Stavebniny Domov'));
  });

  it('lets a missing page reach the shell as "not found" (status 404)', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    fetchMock.mockResolvedValue(json(404, { error: { code: 'not_found', message: 'Stránka sa nenašla.' } }));
    renderSlug('neexistuje');
    expect(await screen.findByText('Hranica: chyba')).toBeTruthy();
  });
});
