import type { BlogPost, BlogPostSummary, BlogTag } from '@shop/shared-kernel/contract';
import type { DbOrTrx } from '../../../db/database.ts';
import { sanitizeContentHtml } from '../../../infra/pure/content-html.ts';

export const BLOG_PAGE_SIZE = 15;

/** Blog posts, newest first, and their tags. */
export class BlogRepository {
  constructor(private readonly db: DbOrTrx) {}

  async tags(): Promise<BlogTag[]> {
    const rows = await this.db
      .selectFrom('blog_tags as t')
      .innerJoin('blog_post_tags as pt', 'pt.tag_id', 't.tag_id')
      .select(['t.slug', 't.name', (eb) => eb.fn.countAll<number>().as('count')])
      .groupBy(['t.tag_id', 't.slug', 't.name'])
      .orderBy('t.name')
      .execute();
    return rows.map((row) => ({ slug: row.slug, name: row.name, count: Number(row.count) }));
  }

  async tagBySlug(slug: string): Promise<{ tag_id: number } | undefined> {
    return this.db.selectFrom('blog_tags').select('tag_id').where('slug', '=', slug).executeTakeFirst();
  }

  private async tagsOf(postIds: number[]): Promise<Map<number, BlogPostSummary['tags']>> {
    const byPost = new Map<number, BlogPostSummary['tags']>();
    if (postIds.length === 0) return byPost;
    const rows = await this.db
      .selectFrom('blog_post_tags as pt')
      .innerJoin('blog_tags as t', 't.tag_id', 'pt.tag_id')
      .select(['pt.post_id', 't.slug', 't.name'])
      .where('pt.post_id', 'in', postIds)
      .orderBy('t.name')
      .execute();
    for (const row of rows) byPost.set(row.post_id, [...(byPost.get(row.post_id) ?? []), { slug: row.slug, name: row.name }]);
    return byPost;
  }

  /** One page of posts (optionally of one tag) and the total. */
  async page(options: { tagId?: number; page: number }): Promise<{ items: BlogPostSummary[]; total: number }> {
    let query = this.db.selectFrom('blog_posts as p');
    if (options.tagId !== undefined) {
      query = query.where(({ exists, selectFrom }) =>
        exists(
          selectFrom('blog_post_tags as pt')
            .select('pt.post_id')
            .whereRef('pt.post_id', '=', 'p.post_id')
            .where('pt.tag_id', '=', options.tagId!),
        ),
      );
    }
    const [{ total }] = [await query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow()];
    const rows = await query
      .select(['p.post_id', 'p.slug', 'p.title', 'p.perex', 'p.published_at'])
      .orderBy('p.published_at', 'desc')
      .orderBy('p.post_id', 'desc')
      .limit(BLOG_PAGE_SIZE)
      .offset((options.page - 1) * BLOG_PAGE_SIZE)
      .execute();
    const tags = await this.tagsOf(rows.map((row) => row.post_id));
    return {
      total: Number(total),
      items: rows.map((row) => ({
        slug: row.slug,
        title: row.title,
        perex: row.perex,
        publishedAt: row.published_at,
        tags: tags.get(row.post_id) ?? [],
      })),
    };
  }

  async post(slug: string): Promise<BlogPost | undefined> {
    const row = await this.db
      .selectFrom('blog_posts')
      .select(['post_id', 'slug', 'title', 'perex', 'content_html', 'published_at'])
      .where('slug', '=', slug)
      .executeTakeFirst();
    if (!row) return undefined;
    const tags = await this.tagsOf([row.post_id]);
    return {
      slug: row.slug,
      title: row.title,
      perex: row.perex,
      publishedAt: row.published_at,
      tags: tags.get(row.post_id) ?? [],
      contentHtml: sanitizeContentHtml(row.content_html),
    };
  }
}
