import type { Generated, Insertable, Selectable } from 'kysely';

export interface PageTable {
  page_id: Generated<number>;
  slug: string;
  title: string;
  meta_description: string;
  content_html: string;
  updated_at: string;
}

export interface BlogPostTable {
  post_id: Generated<number>;
  slug: string;
  title: string;
  perex: string;
  content_html: string;
  published_at: string;
}

export interface BlogTagTable {
  tag_id: Generated<number>;
  slug: string;
  name: string;
}

export interface BlogPostTagTable {
  post_id: number;
  tag_id: number;
}

export interface RedirectTable {
  r_id: Generated<number>;
  old_url: string;
  new_url: string;
}

export interface SettingTable {
  key: string;
  /** JSON text. */
  value: string;
}

export interface ContactMessageTable {
  message_id: Generated<number>;
  name: string;
  email: string;
  phone: string | null;
  message: string;
  user_id: number | null;
  created_at: string;
}

export type PageRow = Selectable<PageTable>;
export type NewPage = Insertable<PageTable>;
export type NewBlogPost = Insertable<BlogPostTable>;
export type NewBlogTag = Insertable<BlogTagTable>;
export type NewRedirect = Insertable<RedirectTable>;
export type NewSetting = Insertable<SettingTable>;
