/**
 * Product feeds for price comparators, streamed from the database a batch at a time: Heureka.sk
 * (its XML format: SHOP/SHOPITEM) and Google Merchant Center (RSS 2.0 with the g: namespace).
 * One item per purchasable variant; prices with VAT through the kernel's one price rule.
 */
import { shopPaths } from '@shop/shared-kernel/contract';
import { unitPriceBeforeSale, unitPriceWithVat } from '@shop/shared-kernel/rules';
import { escapeHtml } from '../../../infra/pure/html.ts';
import { productImageUrl } from '../products/repository/mappers.ts';
import type { SeoRepository } from './seo.repository.ts';
import { STREAM_BATCH } from './sitemap.ts';

/** Days until a variant sold "to order" can be delivered, as the feeds announce it. */
export const TO_ORDER_DELIVERY_DAYS = 7;

type Offer = Awaited<ReturnType<SeoRepository['offersAfter']>>[number];
type CategoryPath = (catId: number) => string[];

const euros = (thousandths: number) => (thousandths / 1000).toFixed(2);
const tag = (name: string, value: string | number) => `<${name}>${escapeHtml(String(value))}</${name}>`;
const price = (offer: Offer) => ({ v_sellPrice: offer.v_sell_price, v_vat: offer.v_vat, v_sale: offer.v_sale });

async function categoryPaths(repo: SeoRepository): Promise<CategoryPath> {
  const categories = new Map((await repo.categories()).map((category) => [category.cat_id, category]));
  return (catId) => {
    const names: string[] = [];
    for (
      let at = categories.get(catId);
      at && names.length < 20;
      at = at.cat_parent_id === null ? undefined : categories.get(at.cat_parent_id)
    ) {
      names.unshift(at.cat_name);
    }
    return names;
  };
}

async function* offers(repo: SeoRepository): AsyncGenerator<Offer[]> {
  let after = 0;
  for (;;) {
    const rows = await repo.offersAfter(after, STREAM_BATCH);
    if (rows.length === 0) return;
    yield rows;
    after = rows.at(-1)!.v_id;
  }
}

/** Heureka.sk's XML feed. */
export async function* heurekaFeed(repo: SeoRepository, origin: string): AsyncGenerator<string> {
  const pathOf = await categoryPaths(repo);
  yield '<?xml version="1.0" encoding="UTF-8"?>\n<SHOP>\n';
  for await (const batch of offers(repo)) {
    yield batch
      .map((offer) => {
        const name = `${offer.p_name} ${offer.v_name}`;
        return [
          '<SHOPITEM>',
          tag('ITEM_ID', offer.v_code.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 36)),
          Number(offer.variant_count) > 1 ? tag('ITEMGROUP_ID', offer.p_id) : '',
          tag('PRODUCTNAME', name),
          tag('PRODUCT', name),
          tag('DESCRIPTION', offer.p_description),
          tag('URL', `${origin}${shopPaths.product(offer.p_url)}`),
          tag('IMGURL', origin + productImageUrl(offer.p_id)),
          tag('PRICE_VAT', euros(unitPriceWithVat(price(offer)))),
          offer.b_name ? tag('MANUFACTURER', offer.b_name) : '',
          tag('CATEGORYTEXT', pathOf(offer.cat_id).join(' | ')),
          tag('DELIVERY_DATE', offer.v_availability === 'in_stock' ? 0 : TO_ORDER_DELIVERY_DAYS),
          '</SHOPITEM>\n',
        ].join('');
      })
      .join('');
  }
  yield '</SHOP>\n';
}

/** Google Merchant Center's RSS 2.0 feed. */
export async function* googleFeed(repo: SeoRepository, origin: string, shopName: string): AsyncGenerator<string> {
  const pathOf = await categoryPaths(repo);
  yield '<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0" xmlns:g="http://base.google.com/ns/1.0">\n<channel>\n';
  yield `${tag('title', shopName)}${tag('link', `${origin}/`)}${tag('description', 'Stavebný materiál, náradie a všetko pre stavbu.')}\n`;
  for await (const batch of offers(repo)) {
    yield batch
      .map((offer) => {
        const current = unitPriceWithVat(price(offer));
        const before = unitPriceBeforeSale(price(offer));
        return [
          '<item>',
          tag('g:id', offer.v_code),
          tag('g:title', `${offer.p_name} ${offer.v_name}`.slice(0, 150)),
          tag('g:description', offer.p_description.slice(0, 5000)),
          tag('g:link', `${origin}${shopPaths.product(offer.p_url)}`),
          tag('g:image_link', origin + productImageUrl(offer.p_id)),
          tag('g:availability', offer.v_availability === 'in_stock' ? 'in_stock' : 'backorder'),
          tag('g:price', `${euros(before)} EUR`),
          current < before ? tag('g:sale_price', `${euros(current)} EUR`) : '',
          offer.b_name ? tag('g:brand', offer.b_name) : '',
          Number(offer.variant_count) > 1 ? tag('g:item_group_id', offer.p_id) : '',
          tag('g:condition', 'new'),
          tag('g:product_type', pathOf(offer.cat_id).join(' > ')),
          tag('g:shipping_weight', `${(offer.v_weight / 1000).toFixed(3).replace(/\.?0+$/, '')} kg`),
          tag('g:identifier_exists', 'no'),
          '</item>\n',
        ].join('');
      })
      .join('');
  }
  yield '</channel>\n</rss>\n';
}
