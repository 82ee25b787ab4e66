/**
 * Structured data (schema.org JSON-LD) of the catalog's pages, for search engines and price
 * comparators: a product with its offers (price in EUR with VAT, after the sale, availability)
 * and the breadcrumb trail. Prices come from the kernel's one price rule.
 */
import { unitPriceWithVat } from '@shop/shared-kernel/rules';
import { shopPaths, type Availability, type Breadcrumb, type ProductDetail } from '@shop/shared-kernel/contract';

const AVAILABILITY: Record<Availability, string> = {
  in_stock: 'https://schema.org/InStock',
  to_order: 'https://schema.org/BackOrder',
  unavailable: 'https://schema.org/OutOfStock',
};

/** Thousandths of a euro as schema.org wants a price: "18.12". */
const euros = (thousandths: number) => (thousandths / 1000).toFixed(2);

export function productJsonLd(product: ProductDetail, origin: string): Record<string, unknown> {
  const url = `${origin}${shopPaths.product(product.p_url)}`;
  const images = (product.p_images.length > 0 ? product.p_images : product.variants.map((variant) => variant.p_image))
    .filter(Boolean)
    .map((image) => new URL(image, `${origin}/`).href);
  return {
    '@type': 'Product',
    name: product.p_name,
    description: product.p_description,
    url,
    ...(images.length > 0 ? { image: [...new Set(images)] } : {}),
    ...(product.variants[0] ? { sku: product.variants[0].v_code } : {}),
    ...(product.brand ? { brand: { '@type': 'Brand', name: product.brand.b_name } } : {}),
    offers: product.variants.map((variant) => ({
      '@type': 'Offer',
      sku: variant.v_code,
      name: `${product.p_name} ${variant.v_name}`,
      price: euros(unitPriceWithVat(variant)),
      priceCurrency: 'EUR',
      availability: AVAILABILITY[variant.v_availability],
      itemCondition: 'https://schema.org/NewCondition',
      url,
    })),
  };
}

export function breadcrumbJsonLd(items: readonly Breadcrumb[], origin: string): Record<string, unknown> {
  return {
    '@type': 'BreadcrumbList',
    itemListElement: [{ name: 'Domov', url: '/' }, ...items].map((item, index) => ({
      '@type': 'ListItem',
      position: index + 1,
      name: item.name,
      item: new URL(item.url, `${origin}/`).href,
    })),
  };
}
