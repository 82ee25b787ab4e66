/**
 * The catalog's answers: the home page, a category, a brand, a listing page and its facets, a
 * product's detail and a variant. Every query goes through CatalogRepository.
 */
import type {
  Brand,
  CategoryDetail,
  HomeData,
  ListingFacets,
  Paged,
  ProductDetail,
  ProductSort,
  ProductSummary,
  VariantData,
} from '@shop/shared-kernel/contract';
import { PAGE_SIZE } from '@shop/shared-kernel/rules';
import { notFound } from '../../../infra/http/errors.ts';
import { toProductFilter, type ListingFilterInput } from './listing-filter.service.ts';
import type { CatalogRepository } from './repository/catalog.repository.ts';
import { productImageUrl, toBrand } from './repository/mappers.ts';

/** Product tiles in each row of the home page (on sale, newest). */
const HOME_TILES = 8;

export class CatalogService {
  constructor(private readonly catalog: CatalogRepository) {}

  async home(): Promise<HomeData> {
    const [tree, brands, sale, newest] = await Promise.all([
      this.catalog.categoryTree(),
      this.catalog.brands(),
      this.catalog.listProducts({ saleOnly: true }, 'popular', { limit: HOME_TILES, offset: 0 }),
      this.catalog.listProducts({}, 'newest', { limit: HOME_TILES, offset: 0 }),
    ]);
    return { categories: tree.roots, sale: sale.items, newest: newest.items, brands };
  }

  async category(url: string): Promise<CategoryDetail> {
    const tree = await this.catalog.categoryTree();
    const category = tree.findByUrl(url);
    if (!category) throw notFound('Kategória sa nenašla.');
    return {
      cat_id: category.cat_id,
      cat_url: category.cat_url,
      cat_name: category.cat_name,
      cat_description: category.cat_description,
      breadcrumbs: tree.breadcrumbs(category.cat_id),
      children: tree.node(category.cat_id)?.children ?? [],
    };
  }

  async brand(url: string): Promise<Brand> {
    const brand = await this.catalog.brandByUrl(url);
    if (!brand) throw notFound('Značka sa nenašla.');
    return brand;
  }

  /** One page of a listing (PAGE_SIZE tiles) in the asked order; page 1 and 'popular' unless asked. */
  async listing(query: ListingFilterInput & { page?: number; sort?: ProductSort }): Promise<Paged<ProductSummary>> {
    const { page = 1, sort = 'popular' } = query;
    const filter = await toProductFilter(this.catalog, await this.catalog.categoryTree(), query);
    const { items, total } = await this.catalog.listProducts(filter, sort, { limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE });
    return {
      data: items,
      meta: { page, pageSize: PAGE_SIZE, total, pageCount: Math.max(1, Math.ceil(total / PAGE_SIZE)) },
    };
  }

  async facets(query: ListingFilterInput): Promise<ListingFacets> {
    const filter = await toProductFilter(this.catalog, await this.catalog.categoryTree(), query);
    return this.catalog.facets(filter);
  }

  /** A product with its variants, attributes, 30-day lowest prices, accessories and related products. */
  async product(url: string): Promise<ProductDetail> {
    const [found, tree] = await Promise.all([this.catalog.productPage(url), this.catalog.categoryTree()]);
    if (!found) throw notFound('Produkt sa nenašiel.');
    const { product, variants, attributes, accessories, lowest, related } = found;
    return {
      p_id: product.p_id,
      p_url: product.p_url,
      p_name: product.p_name,
      p_description: product.p_description,
      p_images: [productImageUrl(product.p_id)],
      brand: toBrand(product),
      breadcrumbs: tree.breadcrumbs(product.cat_id),
      variants,
      attributes,
      lowestPrices: [...lowest].map(([v_id, price]) => ({ v_id, price })),
      accessories,
      related,
    };
  }

  async variant(vId: number): Promise<VariantData> {
    const variant = await this.catalog.variant(vId);
    if (!variant) throw notFound('Variant produktu sa nenašiel.');
    return variant;
  }

  /** The variants of these ids that exist, in the order asked (a basket's lines: at most BASKET_LIMITS.lines ids). */
  async variants(ids: readonly number[]): Promise<VariantData[]> {
    const found = await Promise.all([...new Set(ids)].map((id) => this.catalog.variant(id)));
    return found.filter((variant): variant is VariantData => variant !== null && variant !== undefined);
  }
}
