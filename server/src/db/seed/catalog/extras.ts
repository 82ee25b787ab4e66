/**
 * Catalog seed additions, run after the products: accessory products and the
 * required accessories / components linked to products, and a believable price history of
 * every variant (so the 30-day lowest price next to a discount has data behind it).
 * Uses its own random stream, so the rest of the seed stays exactly as it was.
 */
import type { Transaction } from 'kysely';
import { unitPriceBeforeSale, unitPriceWithVat } from '@shop/shared-kernel/rules';
import { foldText, slugify } from '../../../infra/pure/format.ts';
import type { Database } from '../../database.ts';
import type { AccessoryKind, NewVariant } from '../../catalog.table.ts';
import { createRng } from '../prng.ts';
import type { Rng } from '../prng.ts';

const DAY = 86_400_000;
const VAT = 23;

type AccessoryProduct = {
  name: string;
  brand: string;
  cat: string;
  description: string;
  variants: { name: string; gross: number; unit: string; weight: number }[];
};

/** Products sold mainly as accessories of others. */
const ACCESSORY_PRODUCTS: AccessoryProduct[] = [
  {
    name: 'Lemovanie Velux EDW 0000 pre profilovanú krytinu',
    brand: 'velux',
    cat: 'stresne-okna',
    description:
      'Lemovanie strešného okna Velux pre profilované krytiny (škridly) do hĺbky profilu 120 mm. Odvádza vodu okolo okna a chráni spoj so strechou.',
    variants: [{ name: '78 × 118 cm', gross: 109.9, unit: 'ks', weight: 3.1 }],
  },
  {
    name: 'Lemovanie Fakro EZV-A pre profilovanú krytinu',
    brand: 'fakro',
    cat: 'stresne-okna',
    description: 'Lemovanie strešného okna Fakro pre profilované krytiny do výšky profilu 45 mm, s plisovanou olovenou zásterou.',
    variants: [{ name: '78 × 118 cm', gross: 96.9, unit: 'ks', weight: 2.9 }],
  },
  {
    name: 'Pripojovacia súprava Schiedel pre kotol na tuhé palivo',
    brand: 'schiedel',
    cat: 'kominove-systemy',
    description:
      'Súprava na pripojenie kotla ku komínovému systému Schiedel: tvarovka s prípojkou dymovodu, vymetacie dvierka a kondenzátna miska.',
    variants: [{ name: '1 súprava', gross: 189.9, unit: 'ks', weight: 24 }],
  },
  {
    name: 'Komínová hlava Schiedel s krycou doskou',
    brand: 'schiedel',
    cat: 'kominove-systemy',
    description: 'Ukončenie komína nad strechou: betónová krycia doska, ukončovací kónus a dilatačná manžeta pre systémy Schiedel.',
    variants: [{ name: '1 ks', gross: 149.9, unit: 'ks', weight: 38 }],
  },
];

/** Product url prefix -> the accessory product urls linked to it, with kind and amount per piece. */
const LINKS: { products: string; accessory: string; kind: AccessoryKind; amount: number }[] = [
  { products: 'stresne-okno-velux-', accessory: 'lemovanie-velux-edw-0000-pre-profilovanu-krytinu', kind: 'component', amount: 1 },
  { products: 'stresne-okno-fakro-', accessory: 'lemovanie-fakro-ezv-a-pre-profilovanu-krytinu', kind: 'component', amount: 1 },
  {
    products: 'kominovy-system-schiedel-',
    accessory: 'pripojovacia-suprava-schiedel-pre-kotol-na-tuhe-palivo',
    kind: 'required',
    amount: 1,
  },
  { products: 'kominovy-system-schiedel-', accessory: 'kominova-hlava-schiedel-s-krycou-doskou', kind: 'required', amount: 1 },
];

/** Whole cents in thousandths. */
const cents = (amount: number) => Math.round(amount / 10) * 10;

/** Accessory products dated before this day, so the seed stays the same on every run. */
const ACCESSORIES_CREATED = Date.UTC(2025, 8, 1);

export async function seedAccessories(trx: Transaction<Database>): Promise<void> {
  const [brands, categories] = await Promise.all([
    trx.selectFrom('brands').select(['b_id', 'b_url']).execute(),
    trx.selectFrom('categories').select(['cat_id', 'cat_url']).execute(),
  ]);
  const brandId = new Map(brands.map((b) => [b.b_url, b.b_id]));
  const catId = new Map(categories.map((c) => [c.cat_url, c.cat_id]));
  for (const [index, draft] of ACCESSORY_PRODUCTS.entries()) {
    const url = slugify(draft.name);
    const product = await trx
      .insertInto('products')
      .values({
        p_url: url,
        p_name: draft.name,
        p_name_sort: foldText(draft.name),
        p_description: draft.description,
        b_id: brandId.get(draft.brand) ?? null,
        cat_id: catId.get(draft.cat)!,
        p_created_at: new Date(ACCESSORIES_CREATED - (index + 1) * 40 * DAY).toISOString(),
        p_popularity: 120 - index * 10,
      })
      .returning('p_id')
      .executeTakeFirstOrThrow();
    const variants: NewVariant[] = draft.variants.map((v, j) => ({
      p_id: product.p_id,
      v_code: `SDA${String(product.p_id).padStart(4, '0')}${String(j + 1).padStart(2, '0')}`,
      v_name: v.name,
      v_sell_price: Math.round((v.gross * 1000 * 100) / (100 + VAT)),
      v_vat: VAT,
      v_stock: 25,
      v_availability: 'in_stock',
      v_weight: Math.round(v.weight * 1000),
      v_unit: v.unit,
      v_base_amount: null,
      v_base_unit: null,
    }));
    await trx.insertInto('variants').values(variants).execute();
  }

  const products = await trx.selectFrom('products').select(['p_id', 'p_url']).execute();
  const firstVariant = async (pId: number) =>
    (await trx.selectFrom('variants').select('v_id').where('p_id', '=', pId).orderBy('v_id').executeTakeFirstOrThrow()).v_id;
  const rows: { p_id: number; v_id: number; pa_kind: AccessoryKind; pa_amount: number; pa_position: number }[] = [];
  for (const [position, link] of LINKS.entries()) {
    const accessory = products.find((p) => p.p_url === link.accessory);
    if (!accessory) throw new Error(`Seed accessory "${link.accessory}" is missing`);
    const vId = await firstVariant(accessory.p_id);
    for (const p of products) {
      if (p.p_url.startsWith(link.products)) {
        rows.push({ p_id: p.p_id, v_id: vId, pa_kind: link.kind, pa_amount: link.amount, pa_position: position });
      }
    }
  }
  if (rows.length > 0) await trx.insertInto('product_accessories').values(rows).execute();
}

type PricedVariant = { v_id: number; v_sell_price: number; v_vat: number; v_sale: number };

/**
 * History rows of one variant, oldest first, ending with its current price:
 * an older, slightly lower price; the regular price since 2–4 months; for some variants a short
 * promotion in the past; for a discounted variant, the discount since 2–20 days, sometimes with
 * a short earlier promotion inside the 30 days before it (which then is the 30-day lowest price).
 */
export function variantHistory(rng: Rng, v: PricedVariant, now: number): { ph_price: number; ph_from: string }[] {
  const regular = unitPriceBeforeSale({ v_sellPrice: v.v_sell_price, v_vat: v.v_vat });
  const current = unitPriceWithVat({ v_sellPrice: v.v_sell_price, v_vat: v.v_vat, v_sale: v.v_sale });
  const at = (daysAgo: number) => new Date(now - daysAgo * DAY - rng.int(0, 86_399) * 1000).toISOString();
  const rows: { ph_price: number; ph_from: string }[] = [];
  rows.push({ ph_price: cents(regular * (0.9 + rng.int(0, 7) / 100)), ph_from: at(rng.int(150, 200)) });
  rows.push({ ph_price: regular, ph_from: at(rng.int(61, 120)) });
  if (v.v_sale > 0) {
    const saleDaysAgo = rng.int(2, 20);
    if (rng.chance(0.35)) {
      rows.push({ ph_price: cents(regular * 0.95), ph_from: at(saleDaysAgo + 20) });
      rows.push({ ph_price: regular, ph_from: at(saleDaysAgo + 12) });
    }
    rows.push({ ph_price: current, ph_from: at(saleDaysAgo) });
  } else if (rng.chance(0.1)) {
    rows.push({ ph_price: cents(regular * 0.9), ph_from: at(rng.int(50, 60)) });
    rows.push({ ph_price: regular, ph_from: at(rng.int(35, 45)) });
  }
  return rows;
}

export async function seedPriceHistory(trx: Transaction<Database>, now: number, seed: number): Promise<void> {
  const rng = createRng(seed);
  const variants = await trx.selectFrom('variants').select(['v_id', 'v_sell_price', 'v_vat', 'v_sale']).orderBy('v_id').execute();
  const rows = variants.flatMap((v) => variantHistory(rng, v, now).map((row) => ({ v_id: v.v_id, ...row })));
  for (let i = 0; i < rows.length; i += 500)
    await trx
      .insertInto('price_history')
      .values(rows.slice(i, i + 500))
      .execute();
}
