import type { MenuLink, SiteData, StaticPage } from '@shop/shared-kernel/contract';
import type { DbOrTrx } from '../../../db/database.ts';

export class ContentRepository {
  constructor(private readonly db: DbOrTrx) {}

  /** A settings value (JSON), or undefined when missing. */
  async setting<T>(key: string): Promise<T | undefined> {
    const row = await this.db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
    return row ? (JSON.parse(row.value) as T) : undefined;
  }

  async site(): Promise<SiteData | undefined> {
    return this.setting<SiteData>('site');
  }

  async menuLinks(): Promise<MenuLink[]> {
    return (await this.setting<{ links: MenuLink[] }>('menu'))?.links ?? [];
  }

  async page(slug: string): Promise<StaticPage | undefined> {
    const row = await this.db
      .selectFrom('pages')
      .select(['slug', 'title', 'meta_description', 'content_html'])
      .where('slug', '=', slug)
      .executeTakeFirst();
    return row && { slug: row.slug, title: row.title, metaDescription: row.meta_description, contentHtml: row.content_html };
  }
}
