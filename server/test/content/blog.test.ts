import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BlogPost, BlogPostSummary, BlogTag, Paged, StaticPage } from '@shop/shared-kernel/contract';
import { expectErrorShape, startTestApi, type TestApi } from '../helpers/test-api.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api?.close();
});

describe('blog', () => {
  it('pages all posts newest first, 15 a page', async () => {
    const first = await api.get<Paged<BlogPostSummary>>('/api/blog');
    expect(first.status).toBe(200);
    expect(first.body.meta).toMatchObject({ page: 1, pageSize: 15 });
    expect(first.body.meta.total).toBeGreaterThan(15);
    expect(first.body.meta.pageCount).toBe(Math.ceil(first.body.meta.total / 15));
    expect(first.body.data).toHaveLength(15);
    const dates = first.body.data.map((post) => post.publishedAt);
    expect([...dates].sort().reverse()).toEqual(dates);
    const last = await api.get<Paged<BlogPostSummary>>(`/api/blog?page=${first.body.meta.pageCount}`);
    expect(last.body.data).toHaveLength(first.body.meta.total - 15 * (first.body.meta.pageCount - 1));
    const seen = new Set([...first.body.data, ...last.body.data].map((post) => post.slug));
    expect(seen.size).toBe(first.body.data.length + last.body.data.length);
  });

  it('lists tags with counts that match the tag listing, and pages a tag', async () => {
    const tags = await api.get<{ data: BlogTag[] }>('/api/blog/tags');
    expect(tags.body.data.length).toBeGreaterThanOrEqual(5);
    for (const tag of tags.body.data) {
      const listing = await api.get<Paged<BlogPostSummary>>(`/api/blog?tag=${tag.slug}`);
      expect(listing.body.meta.total).toBe(tag.count);
      expect(listing.body.data.every((post) => post.tags.some((t) => t.slug === tag.slug))).toBe(true);
    }
    const busiest = [...tags.body.data].sort((a, b) => b.count - a.count)[0]!;
    expect(busiest.count).toBeGreaterThan(15);
    const second = await api.get<Paged<BlogPostSummary>>(`/api/blog?tag=${busiest.slug}&page=2`);
    expect(second.body.data).toHaveLength(busiest.count - 15);
  });

  it('answers 404 for an unknown tag or post and 400 for a bad page', async () => {
    expectErrorShape((await api.get('/api/blog?tag=neexistuje')).body, 'not_found');
    expectErrorShape((await api.get('/api/blog/post/neexistuje')).body, 'not_found');
    const bad = await api.get('/api/blog?page=0');
    expect(bad.status).toBe(400);
  });

  it('serves a post with its tags and links into the catalog', async () => {
    const post = await api.get<{ data: BlogPost }>('/api/blog/post/ako-vybrat-aku-vrtacku');
    expect(post.status).toBe(200);
    expect(post.body.data.title).toBe('Ako vybrať aku vŕtačku');
    expect(post.body.data.tags.map((tag) => tag.slug)).toEqual(expect.arrayContaining(['navody', 'naradie']));
    expect(post.body.data.contentHtml).toContain('<a href="/p/aku-vrtaci-skrutkovac-makita-ddf485">');
  });
});

describe('sanitised content', () => {
  it('serves a stored script or onerror payload inert', async () => {
    await api.db
      .insertInto('pages')
      .values({
        slug: 'napadnuta-stranka',
        title: 'Test',
        meta_description: 'Test',
        content_html:
          '<h2>Ahoj</h2><script>alert(1)</script><img src="/x.svg" onerror="alert(2)"><a href="javascript:alert(3)">x</a><iframe src="https://evil.example"></iframe>',
        updated_at: new Date().toISOString(),
      })
      .execute();
    const page = await api.get<{ data: StaticPage }>('/api/page/napadnuta-stranka');
    expect(page.status).toBe(200);
    expect(page.body.data.contentHtml).toContain('<h2>Ahoj</h2>');
    expect(page.body.data.contentHtml).not.toMatch(/script|onerror|javascript:|iframe/i);
  });

  it('stores seeded pages sanitised', async () => {
    const rows = await api.db.selectFrom('pages').select('content_html').where('slug', '!=', 'napadnuta-stranka').execute();
    for (const row of rows) expect(row.content_html).not.toMatch(/<script|on\w+=|javascript:/i);
  });
});
