/** Content shapes: menu, site data, static pages, blog, redirects, consent choices. */
import { Type, type Static } from '@sinclair/typebox';
import { CategoryNode } from './catalog-types.ts';

/** An old URL that moved, and where it leads now (a path or an external address). */
export type RedirectEntry = Static<typeof RedirectEntry>;
export const RedirectEntry = Type.Object({ old_url: Type.String(), new_url: Type.String() });

export type StaticPage = Static<typeof StaticPage>;
export const StaticPage = Type.Object({
  slug: Type.String(),
  title: Type.String(),
  metaDescription: Type.String(),
  /** Sanitised HTML. */
  contentHtml: Type.String({ description: 'Očistené HTML' }),
});

export type BlogPostSummary = Static<typeof BlogPostSummary>;
export const BlogPostSummary = Type.Object({
  slug: Type.String(),
  title: Type.String(),
  perex: Type.String(),
  publishedAt: Type.String(),
  tags: Type.Array(Type.Object({ slug: Type.String(), name: Type.String() })),
});

/** A blog topic with the number of its posts. */
export type BlogTag = Static<typeof BlogTag>;
export const BlogTag = Type.Object({ slug: Type.String(), name: Type.String(), count: Type.Integer() });

export type BlogPost = Static<typeof BlogPost>;
export const BlogPost = Type.Composite([
  BlogPostSummary,
  Type.Object({
    /** Sanitised HTML. */
    contentHtml: Type.String({ description: 'Očistené HTML' }),
  }),
]);

/** Consent choices (requirements R3.8). */
export type ConsentChoices = Static<typeof ConsentChoices>;
export const ConsentChoices = Type.Object({ cookie_required: Type.Boolean(), cookie_ga: Type.Boolean(), cookie_ads: Type.Boolean() });

export type MenuLink = Static<typeof MenuLink>;
export const MenuLink = Type.Object({ label: Type.String(), url: Type.String() });

/** The main menu: the category tree and the extra links. */
export type MenuData = Static<typeof MenuData>;
export const MenuData = Type.Object({ categories: Type.Array(CategoryNode), links: Type.Array(MenuLink) });

/** The shop's own data (header, footer, contact page, invoices). */
export type SiteData = Static<typeof SiteData>;
export const SiteData = Type.Object({
  name: Type.String(),
  phone: Type.String(),
  email: Type.String(),
  address: Type.Object({ street: Type.String(), city: Type.String(), zip: Type.String(), country: Type.String() }),
  company: Type.Object({ name: Type.String(), ico: Type.String(), dic: Type.String(), icDph: Type.String() }),
  footerLinks: Type.Array(MenuLink),
});
