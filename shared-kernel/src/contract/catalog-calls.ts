/** The public catalog: home, categories, brands, product listings with facets, product and variant detail, search. */
import { Type } from '@sinclair/typebox';
import { defineCalls, Paged, type CallTypes } from './common.ts';
import { SEARCH_LIMITS } from './catalog-limits.ts';
import { BASKET_LIMITS } from './basket-limits.ts';
import { MAX_RECORD_ID } from './record-id.ts';
import {
  Brand,
  CategoryDetail,
  HomeData,
  ListingFacets,
  ListingFacetsQuery,
  ListingQuery,
  ProductDetail,
  ProductSummary,
  SearchResults,
  SearchSuggestions,
  UrlSlug,
  VariantData,
} from './catalog-types.ts';

const UrlParams = Type.Object({ url: UrlSlug });

/** What a shopper searches for; only its first words count. */
const SearchText = Type.String({ minLength: 1, maxLength: SEARCH_LIMITS.textLength });
/** At most SEARCH_LIMITS.parameters query parameters; unknown ones are dropped. */
const searchQueryOptions = { additionalProperties: false, maxProperties: SEARCH_LIMITS.parameters };

export const catalogCalls = defineCalls({
  // requirements R7.4
  'POST /api/product/variant/detail': {
    summary: 'Údaje variantu produktu (pre košík)',
    body: Type.Object({ v_id: Type.Integer({ minimum: 1, maximum: MAX_RECORD_ID }) }),
    answer: Type.Object({ data: VariantData }),
  },
  // The basket page's server render: every line's variant in one call (the ids of its cookie).
  'GET /api/product/variants': {
    summary: 'Údaje variantov produktov (riadky košíka)',
    query: Type.Object(
      {
        ids: Type.String({
          pattern: `^[1-9][0-9]{0,9}(,[1-9][0-9]{0,9}){0,${BASKET_LIMITS.lines - 1}}$`,
          maxLength: BASKET_LIMITS.lines * 11,
        }),
      },
      { additionalProperties: false },
    ),
    answer: Type.Object({ data: Type.Array(VariantData, { maxItems: BASKET_LIMITS.lines }) }),
  },
  'GET /api/home': { summary: 'Úvodná stránka: kategórie, výpredaj, novinky, značky', answer: Type.Object({ data: HomeData }) },
  'GET /api/category/:url': { summary: 'Kategória s podkategóriami', params: UrlParams, answer: Type.Object({ data: CategoryDetail }) },
  'GET /api/products': {
    summary: 'Stránka výpisu produktov (kategória, značka, výpredaj) s filtrami a radením',
    query: ListingQuery,
    answer: Paged(ProductSummary),
  },
  'GET /api/products/facets': {
    summary: 'Filtre výpisu s počtami produktov',
    query: ListingFacetsQuery,
    answer: Type.Object({ data: ListingFacets }),
  },
  'GET /api/product/:url': { summary: 'Detail produktu', params: UrlParams, answer: Type.Object({ data: ProductDetail }) },
  'GET /api/brand/:url': { summary: 'Značka', params: UrlParams, answer: Type.Object({ data: Brand }) },
  'GET /api/search': {
    summary: 'Vyhľadávanie: produkty podľa relevancie a zodpovedajúce kategórie',
    query: Type.Object(
      { q: SearchText, page: Type.Optional(Type.Integer({ minimum: 1, maximum: SEARCH_LIMITS.page, default: 1 })) },
      searchQueryOptions,
    ),
    answer: SearchResults,
  },
  'GET /api/search/suggest': {
    summary: 'Návrhy počas písania',
    query: Type.Object({ q: SearchText }, searchQueryOptions),
    answer: Type.Object({ data: SearchSuggestions }),
  },
});

export type CatalogCalls = CallTypes<typeof catalogCalls>;
