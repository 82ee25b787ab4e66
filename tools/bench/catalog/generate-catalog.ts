/**
 * Grows a seeded catalog to a large one (100,000 products by default) for benchmarks.
 * Every generated product is a believable sibling of a seeded one: same category, brand,
 * description style, attributes (numeric values nudged) and variants (prices scaled), with a
 * series word in its name ("Tehla Porotherm 30 Profi Ekonomik 117"). Deterministic (seeded PRNG).
 * Listing columns and the search index are filled by the database's own triggers.
 */
import type { Kysely } from 'kysely';
import type { NewAttributeValue, NewProduct, NewVariant } from '../../../server/src/db/catalog.table.ts';
import type { Database } from '../../../server/src/db/database.ts';
import { createRng } from '../../../server/src/db/seed/prng.ts';
import { foldText, slugify } from '../../../server/src/infra/pure/format.ts';

const SERIES = [
  'Štandard',
  'Komfort',
  'Profi',
  'Ekonomik',
  'Plus',
  'Extra',
  'Ľahčený',
  'Pevnosť',
  'Tichý',
  'Hladký',
  'Zimný',
  'Letný',
  'Rýchly',
  'Úsporný',
  'Odolný',
  'Šedý',
  'Biely',
  'Čierny',
  'Exteriér',
  'Interiér',
];
const CHUNK = 500;

export type GenerateOptions = { total: number; seed?: number; log?: (message: string) => void };

async function insertChunks<T>(rows: T[], insert: (chunk: T[]) => Promise<unknown>) {
  for (let i = 0; i < rows.length; i += CHUNK) await insert(rows.slice(i, i + CHUNK));
}

/** Adds products until the catalog holds `total`; returns how many were added. */
export async function generateCatalog(db: Kysely<Database>, options: GenerateOptions): Promise<number> {
  const log = options.log ?? (() => {});
  const rng = createRng(options.seed ?? 424242);
  const count = Number(
    (
      await db
        .selectFrom('products')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
  const missing = options.total - count;
  if (missing <= 0) return 0;

  const templates = await db.selectFrom('products').selectAll().orderBy('p_id').execute();
  const variants = await db.selectFrom('variants').selectAll().orderBy('v_id').execute();
  const values = await db.selectFrom('attribute_values').selectAll().orderBy('av_id').execute();
  const variantsOf = new Map<number, typeof variants>();
  for (const v of variants) variantsOf.set(v.p_id, [...(variantsOf.get(v.p_id) ?? []), v]);
  const valuesOf = new Map<number, typeof values>();
  for (const v of values) valuesOf.set(v.p_id, [...(valuesOf.get(v.p_id) ?? []), v]);

  const batch = 2000;
  let added = 0;
  let serial = 0;
  const start = Date.parse('2023-01-01T00:00:00Z');
  while (added < missing) {
    const size = Math.min(batch, missing - added);
    await db.transaction().execute(async (trx) => {
      const drafts: { product: NewProduct; template: (typeof templates)[number]; factor: number }[] = [];
      for (let i = 0; i < size; i++) {
        serial += 1;
        const template = templates[rng.int(0, templates.length - 1)]!;
        const name = `${template.p_name} ${rng.pick(SERIES)} ${serial}`;
        drafts.push({
          template,
          factor: 0.7 + rng.next() * 0.8,
          product: {
            p_url: `${slugify(name)}-g`,
            p_name: name,
            p_name_sort: foldText(name),
            p_description: template.p_description,
            b_id: template.b_id,
            cat_id: template.cat_id,
            p_created_at: new Date(start + rng.int(0, 1000) * 86_400_000 + rng.int(0, 86_399) * 1000).toISOString(),
            p_popularity: rng.chance(0.05) ? rng.int(500, 3000) : rng.int(0, 500),
          },
        });
      }
      const ids: number[] = [];
      await insertChunks(drafts, async (chunk) => {
        const rows = await trx
          .insertInto('products')
          .values(chunk.map((d) => d.product))
          .returning('p_id')
          .execute();
        ids.push(...rows.map((r) => r.p_id));
      });
      const newVariants: NewVariant[] = [];
      const newValues: NewAttributeValue[] = [];
      drafts.forEach((draft, i) => {
        const pId = ids[i]!;
        (variantsOf.get(draft.template.p_id) ?? []).forEach((v, j) => {
          const roll = rng.next();
          const availability = roll < 0.72 ? 'in_stock' : roll < 0.93 ? 'to_order' : 'unavailable';
          newVariants.push({
            p_id: pId,
            v_code: `G${pId}-${j + 1}`,
            v_name: v.v_name,
            v_sell_price: Math.max(10, Math.round((v.v_sell_price * draft.factor) / 10) * 10),
            v_vat: v.v_vat,
            v_sale: rng.chance(0.12) ? rng.pick([5_000, 10_000, 15_000, 20_000, 30_000]) : 0,
            v_stock: availability === 'in_stock' ? rng.int(1, 400) : 0,
            v_availability: availability,
            v_weight: v.v_weight,
            v_unit: v.v_unit,
            v_base_amount: v.v_base_amount,
            v_base_unit: v.v_base_unit,
          });
        });
        for (const value of valuesOf.get(draft.template.p_id) ?? []) {
          newValues.push({
            p_id: pId,
            attr_id: value.attr_id,
            av_string: value.av_string,
            av_integer: value.av_integer === null ? null : Math.round(value.av_integer * (0.8 + rng.int(0, 8) / 20)),
          });
        }
      });
      await insertChunks(newVariants, (chunk) => trx.insertInto('variants').values(chunk).execute());
      await insertChunks(newValues, (chunk) => trx.insertInto('attribute_values').values(chunk).execute());
    });
    added += size;
    if (added % 20_000 === 0 || added === missing) log(`generated ${added} of ${missing} products`);
  }
  return added;
}
