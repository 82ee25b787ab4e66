/** Menu, site data, static pages, blog, redirects and the contact form. */
import { Type } from '@sinclair/typebox';
import { defineCalls, Ok, Paged, type CallTypes } from './common.ts';
import { BlogPost, BlogPostSummary, BlogTag, MenuData, RedirectEntry, SiteData, StaticPage } from './content-types.ts';

/** An old address or a redirect's target (the rules: redirect-rules.ts). */
const RedirectUrl = Type.String({ minLength: 1, maxLength: 2000 });

/** A blog post's or topic's slug. */
const BlogSlug = Type.String({ minLength: 1, maxLength: 200, pattern: '^[a-z0-9-]+$' });

export const contentCalls = defineCalls({
  // requirements R7.5
  'GET /api/menu': { summary: 'Hlavné menu: strom kategórií a odkazy', answer: Type.Object({ data: MenuData }) },
  'GET /api/site': { summary: 'Údaje obchodu (kontakt, firma, odkazy v pätičke)', answer: Type.Object({ data: SiteData }) },
  'GET /api/redirect/list': { summary: 'Všetky presmerovania starých adries', answer: Type.Object({ data: Type.Array(RedirectEntry) }) },
  // ours
  'GET /api/redirect': {
    summary: 'Kam vedie stará adresa (null: nikam)',
    query: Type.Object({ path: Type.String({ minLength: 1, maxLength: 2000 }) }),
    answer: Type.Object({ data: Type.Union([Type.Object({ to: Type.String(), external: Type.Boolean() }), Type.Null()]) }),
  },
  // The operator's redirects (the operator origin's session): an old address of the shop and where it moved.
  'GET /api/operator/redirects': {
    summary: 'Všetky presmerovania starých adries (operátor)',
    answer: Type.Object({ data: Type.Array(RedirectEntry) }),
  },
  'PUT /api/operator/redirects': {
    summary: 'Uloží presmerovanie starej adresy (operátor)',
    body: Type.Object({ old_url: RedirectUrl, new_url: RedirectUrl }, { additionalProperties: false }),
    answer: Type.Object({ data: RedirectEntry }),
  },
  'DELETE /api/operator/redirects': {
    summary: 'Zruší presmerovanie starej adresy (operátor)',
    query: Type.Object({ old_url: RedirectUrl }, { additionalProperties: false }),
    answer: Ok,
  },
  'GET /api/blog': {
    summary: 'Stránka článkov blogu, všetkých alebo jednej témy',
    query: Type.Object(
      { tag: Type.Optional(BlogSlug), page: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000, default: 1 })) },
      { additionalProperties: false },
    ),
    answer: Paged(BlogPostSummary),
  },
  'GET /api/blog/tags': { summary: 'Témy blogu s počtom článkov', answer: Type.Object({ data: Type.Array(BlogTag) }) },
  'GET /api/blog/post/:slug': { summary: 'Článok blogu', params: Type.Object({ slug: BlogSlug }), answer: Type.Object({ data: BlogPost }) },
  'GET /api/page/:slug': {
    summary: 'Statická stránka (obchodné podmienky, kontakt…)',
    params: Type.Object({ slug: Type.String({ minLength: 1, maxLength: 200 }) }),
    answer: Type.Object({ data: StaticPage }),
  },
  /**
   * The lengths are backstops (the form's rules, validateContactMessage, are checked by the API
   * with a Slovak message per field); a filled spam trap is answered 201 and dropped.
   */
  'POST /api/contact': {
    summary: 'Správa z kontaktného formulára',
    body: Type.Object(
      {
        name: Type.String({ maxLength: 200 }),
        email: Type.String({ maxLength: 254 }),
        phone: Type.Optional(Type.String({ maxLength: 40, default: '' })),
        message: Type.String({ maxLength: 6000 }),
        /** Spam trap: always empty for people. */
        website: Type.Optional(Type.String({ maxLength: 500, default: '' })),
      },
      { additionalProperties: false },
    ),
    answer: Ok,
    status: 201,
  },
});

export type ContentCalls = CallTypes<typeof contentCalls>;
