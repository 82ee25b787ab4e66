import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import type { Kysely, Transaction } from 'kysely';
import { foldText, slugify } from '../../infra/pure/format.ts';
import { hashPassword } from '../../infra/pure/password.ts';
import type { NewAttributeValue, NewProduct, NewVariant } from '../catalog.table.ts';
import type { Database } from '../database.ts';
import { dialectOf } from '../dialect.ts';
import { BLOG_POSTS, BLOG_TAGS } from './blog.ts';
import { BLOG_GUIDES } from './blog-guides.ts';
import { sanitizeContentHtml } from '../../infra/pure/content-html.ts';
import { ATTRIBUTES } from './catalog/attributes.ts';
import type { AttributeKey } from './catalog/attributes.ts';
import { BRANDS } from './catalog/brands.ts';
import { CATEGORY_TREE } from './catalog/categories.ts';
import { seedAccessories, seedPriceHistory } from './catalog/extras.ts';
import { envelopeProducts } from './catalog/products-envelope.ts';
import { finishingProducts } from './catalog/products-finishing.ts';
import { structureProducts } from './catalog/products-structure.ts';
import type { CategoryDraft, ProductDraft } from './catalog/types.ts';
import { PAGES, PAGES_UPDATED_AT } from './pages.ts';
import { createRng } from './prng.ts';
import type { Rng } from './prng.ts';
import { COUPONS, DEMO_USERS, MENU_LINKS, OPENING_HOURS, PAYMENT_METHODS, REDEMPTIONS, REDIRECTS, SHIPPING_METHODS, SITE } from './site.ts';

export type SeedResult = { seeded: boolean; ms: number };

const SEED = 20251121;
const SEED_LOCK_KEY = 7_310_425;
const CHUNK = 400;
const VAT = 23;
const SALES = [5_000, 10_000, 10_000, 15_000, 20_000, 25_000, 30_000];
const CATALOG_START = Date.UTC(2024, 0, 8);

/** Every product draft of the catalog, in a fixed order. */
export function catalogDrafts(): ProductDraft[] {
  return [...structureProducts(), ...envelopeProducts(), ...finishingProducts()];
}

/**
 * Seeds a believable catalog, content, users and coupons — only into an empty database
 * (no categories yet). Everything runs in one transaction; on PostgreSQL an advisory lock keeps
 * two instances starting at once from seeding twice.
 */
export async function seedIfEmpty(db: Kysely<Database>): Promise<SeedResult> {
  const started = performance.now();
  // Hash outside the transaction: scrypt is deliberately slow.
  const users = await Promise.all(
    DEMO_USERS.map(async (u) => ({ email: u.email, name: u.name, password_hash: await hashPassword(u.password) })),
  );
  const seeded = await db.transaction().execute(async (trx) => {
    if (dialectOf(trx) === 'postgres') await sql`select pg_advisory_xact_lock(${SEED_LOCK_KEY})`.execute(trx);
    const existing = await trx.selectFrom('categories').select('cat_id').limit(1).executeTakeFirst();
    if (existing) return false;
    const rng = createRng(SEED);
    await seedCatalog(trx, rng);
    await seedContent(trx);
    await seedAccounts(trx, users);
    return true;
  });
  return { seeded, ms: Math.round(performance.now() - started) };
}

async function insertChunked<T>(rows: T[], insert: (chunk: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) await insert(rows.slice(i, i + CHUNK));
}

async function seedCategories(trx: Transaction<Database>): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  let level: { draft: CategoryDraft; parent: string | null; position: number }[] = CATEGORY_TREE.map((draft, i) => ({
    draft,
    parent: null,
    position: i + 1,
  }));
  while (level.length > 0) {
    const rows = await trx
      .insertInto('categories')
      .values(
        level.map(({ draft, parent, position }) => ({
          cat_url: draft.url,
          cat_name: draft.name,
          cat_description: draft.description,
          cat_parent_id: parent === null ? null : ids.get(parent)!,
          cat_position: position,
        })),
      )
      .returning(['cat_id', 'cat_url'])
      .execute();
    for (const row of rows) ids.set(row.cat_url, row.cat_id);
    level = level.flatMap(({ draft }) => (draft.children ?? []).map((child, i) => ({ draft: child, parent: draft.url, position: i + 1 })));
  }
  return ids;
}

function leafUrls(tree: CategoryDraft[]): Set<string> {
  const leaves = new Set<string>();
  const walk = (nodes: CategoryDraft[]) => {
    for (const n of nodes) {
      if (n.children?.length) walk(n.children);
      else leaves.add(n.url);
    }
  };
  walk(tree);
  return leaves;
}

function variantRow(rng: Rng, pId: number, code: string, v: ProductDraft['variants'][number]): NewVariant {
  const roll = rng.next();
  const availability = roll < 0.72 ? 'in_stock' : roll < 0.93 ? 'to_order' : 'unavailable';
  return {
    p_id: pId,
    v_code: code,
    v_name: v.name,
    v_sell_price: Math.round((v.gross * 1000 * 100) / (100 + VAT)),
    v_vat: VAT,
    v_sale: rng.chance(0.15) ? rng.pick(SALES) : 0,
    v_stock: availability === 'in_stock' ? rng.int(3, 480) : 0,
    v_availability: availability,
    v_weight: Math.round(v.weight * 1000),
    v_unit: v.unit,
    v_base_amount: v.base ? Math.round(v.base.amount * 1000) : null,
    v_base_unit: v.base ? v.base.unit : null,
  };
}

async function seedCatalog(trx: Transaction<Database>, rng: Rng): Promise<void> {
  const catIds = await seedCategories(trx);
  const leaves = leafUrls(CATEGORY_TREE);

  const brandRows = await trx
    .insertInto('brands')
    .values(Object.entries(BRANDS).map(([b_url, b_name]) => ({ b_url, b_name })))
    .returning(['b_id', 'b_url'])
    .execute();
  const brandIds = new Map(brandRows.map((b) => [b.b_url, b.b_id]));

  const attrKeys = Object.keys(ATTRIBUTES) as AttributeKey[];
  const attrRows = await trx
    .insertInto('attributes')
    .values(attrKeys.map((k) => ({ attr_name: ATTRIBUTES[k].name, unit_name: ATTRIBUTES[k].unit, use_attr: ATTRIBUTES[k].use })))
    .returning(['attr_id', 'attr_name'])
    .execute();
  const attrIdByName = new Map(attrRows.map((a) => [a.attr_name, a.attr_id]));

  const drafts = catalogDrafts();
  const usedUrls = new Set<string>();
  const products: NewProduct[] = drafts.map((d) => {
    if (!leaves.has(d.cat)) throw new Error(`Seed product "${d.name}" is in unknown or non-leaf category "${d.cat}"`);
    if (d.brand !== null && !brandIds.has(d.brand)) throw new Error(`Seed product "${d.name}" has unknown brand "${d.brand}"`);
    let url = slugify(d.name);
    for (let n = 2; usedUrls.has(url); n++) url = `${slugify(d.name)}-${n}`;
    usedUrls.add(url);
    const created = CATALOG_START + rng.int(0, 680) * 86_400_000 + rng.int(0, 86_399) * 1000;
    return {
      p_url: url,
      p_name: d.name,
      p_name_sort: foldText(d.name),
      p_description: d.description,
      b_id: d.brand === null ? null : brandIds.get(d.brand)!,
      cat_id: catIds.get(d.cat)!,
      p_created_at: new Date(created).toISOString(),
      p_popularity: rng.chance(0.1) ? rng.int(500, 2000) : rng.int(0, 500),
    };
  });

  const productIds = new Map<string, number>();
  await insertChunked(products, async (chunk) => {
    const rows = await trx.insertInto('products').values(chunk).returning(['p_id', 'p_url']).execute();
    for (const r of rows) productIds.set(r.p_url, r.p_id);
  });

  const variants: NewVariant[] = [];
  const values: NewAttributeValue[] = [];
  drafts.forEach((d, i) => {
    const pId = productIds.get(products[i]!.p_url)!;
    d.variants.forEach((v, j) => {
      variants.push(variantRow(rng, pId, `SD${String(pId).padStart(5, '0')}${String(j + 1).padStart(2, '0')}`, v));
    });
    for (const [key, value] of Object.entries(d.attrs) as [AttributeKey, number | string][]) {
      const attr_id = attrIdByName.get(ATTRIBUTES[key].name)!;
      values.push(
        typeof value === 'number'
          ? { p_id: pId, attr_id, av_string: null, av_integer: Math.round(value * 1000) }
          : { p_id: pId, attr_id, av_string: value, av_integer: null },
      );
    }
  });
  await insertChunked(variants, (chunk) => trx.insertInto('variants').values(chunk).execute());
  await insertChunked(values, (chunk) => trx.insertInto('attribute_values').values(chunk).execute());
  // Issue 4: accessory products and links, and a price history relative to the day of seeding.
  await seedAccessories(trx);
  await seedPriceHistory(trx, Date.now(), SEED + 4);
}

async function seedContent(trx: Transaction<Database>): Promise<void> {
  // Content HTML is sanitised before it is stored (and again before it is served).
  await trx
    .insertInto('pages')
    .values(PAGES.map((p) => ({ ...p, content_html: sanitizeContentHtml(p.content_html), updated_at: PAGES_UPDATED_AT })))
    .execute();
  const blogPosts = [...BLOG_POSTS, ...BLOG_GUIDES];

  const tagRows = await trx
    .insertInto('blog_tags')
    .values(Object.entries(BLOG_TAGS).map(([slug, name]) => ({ slug, name })))
    .returning(['tag_id', 'slug'])
    .execute();
  const tagIds = new Map(tagRows.map((t) => [t.slug, t.tag_id]));
  const postRows = await trx
    .insertInto('blog_posts')
    .values(
      blogPosts.map((p) => ({
        slug: p.slug,
        title: p.title,
        perex: p.perex,
        content_html: sanitizeContentHtml(p.paragraphs.map((text) => `<p>${text}</p>`).join('\n')),
        published_at: `${p.date}T07:00:00.000Z`,
      })),
    )
    .returning(['post_id', 'slug'])
    .execute();
  const postIds = new Map(postRows.map((p) => [p.slug, p.post_id]));
  await trx
    .insertInto('blog_post_tags')
    .values(blogPosts.flatMap((p) => p.tags.map((tag) => ({ post_id: postIds.get(p.slug)!, tag_id: tagIds.get(tag)! }))))
    .execute();

  await trx.insertInto('redirects').values(REDIRECTS).execute();
  await trx
    .insertInto('settings')
    .values([
      { key: 'site', value: JSON.stringify(SITE) },
      { key: 'menu', value: JSON.stringify({ links: MENU_LINKS }) },
      { key: 'opening_hours', value: JSON.stringify(OPENING_HOURS) },
    ])
    .execute();
  await trx.insertInto('shipping_methods').values(SHIPPING_METHODS).execute();
  await trx.insertInto('payment_methods').values(PAYMENT_METHODS).execute();
}

async function seedAccounts(trx: Transaction<Database>, users: { email: string; name: string; password_hash: string }[]): Promise<void> {
  const createdAt = '2025-01-15T09:00:00.000Z';
  const userRows = await trx
    .insertInto('users')
    .values(users.map((u) => ({ ...u, created_at: createdAt })))
    .returning(['user_id', 'email'])
    .execute();
  const userIds = new Map(userRows.map((u) => [u.email, u.user_id]));
  const couponRows = await trx.insertInto('coupons').values(COUPONS).returning(['coupon_id', 'code']).execute();
  const couponIds = new Map(couponRows.map((c) => [c.code, c.coupon_id]));
  await trx
    .insertInto('coupon_redemptions')
    .values(
      REDEMPTIONS.map(([code, userIndex]) => ({
        coupon_id: couponIds.get(code)!,
        user_id: userIds.get(DEMO_USERS[userIndex]!.email)!,
        order_ref: `OBJ-2025-${String(1000 + userIndex)}`,
        redeemed_at: '2025-06-01T10:00:00.000Z',
      })),
    )
    .execute();
}
