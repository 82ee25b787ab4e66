import { Link, useParams, useSearchParams, resource, ApiError, PaginationNav } from '@shop/shared-kernel';
import { searchTermProblem } from '@shop/shared-kernel/rules';
import { LoadFailed, usePageMeta, useResource } from '@shop/shared-kernel/react';
import { shopPaths, type SearchCategory } from '@shop/shared-kernel/contract';
import { ProductGrid, ProductGridPlaceholder } from '../components/product-card.tsx';
import { foundText } from '../listing/count-text.ts';
import { readPage } from '../listing/listing-params.ts';
import { useCatalogStyles } from '../use-catalog-styles.ts';

function CategoryLinks({ categories, label }: { categories: SearchCategory[]; label: string }) {
  return (
    <ul className="cat-tiles" aria-label={label}>
      {categories.map((category) => (
        <li key={category.cat_id}>
          <Link to={shopPaths.category(category.cat_url)}>{category.cat_name}</Link>
        </li>
      ))}
    </ul>
  );
}

/** No product matched: say why, how to search better, and where to browse instead. */
function NoResults({ term, categories }: { term: string; categories: SearchCategory[] }) {
  const menu = useResource(resource('GET /api/menu'), { select: (answer) => answer.data.categories });
  const suggested: SearchCategory[] =
    categories.length > 0 ? categories : (menu.data ?? []).map(({ cat_id, cat_url, cat_name }) => ({ cat_id, cat_url, cat_name }));
  return (
    <div className="cat-empty cat-no-results" data-testid="no-results">
      <p>
        Pre výraz <strong>„{term}“</strong> sme nenašli žiadny produkt. Hľadáme v názvoch, značkách, kategóriách a popisoch produktov;
        všetky zadané slová sa musia nájsť.
      </p>
      <ul className="cat-no-results__tips">
        <li>Skontrolujte preklepy alebo skúste kratší či všeobecnejší výraz (napríklad „tehla“ namiesto „tehla 44 T Profi“).</li>
        <li>Diakritiku písať nemusíte: „izolacia“ nájde aj „izolácia“.</li>
      </ul>
      {suggested.length > 0 && (
        <>
          <h2>{categories.length > 0 ? 'Možno hľadáte tieto kategórie' : 'Prezrite si naše kategórie'}</h2>
          <CategoryLinks categories={suggested} label="Navrhované kategórie" />
        </>
      )}
    </div>
  );
}

export default function SearchPage() {
  useCatalogStyles();
  const term = (useParams().search ?? '').trim();
  const problem = searchTermProblem(term);
  usePageMeta({
    title: term && !problem ? `Hľadanie: ${term}` : 'Hľadanie',
    description: `Výsledky hľadania „${term.slice(0, 60)}“ v ponuke stavebného materiálu.`,
    canonical: shopPaths.search(term),
  });
  // Nothing to search for, or more than the shop searches: say so, and send nothing.
  if (problem) {
    return (
      <div className="cat-search">
        <h1>Hľadanie</h1>
        <p className="cat-empty" role="alert" data-testid="search-problem">
          {problem}
        </p>
      </div>
    );
  }
  return <SearchResults term={term} />;
}

function SearchResults({ term }: { term: string }) {
  const [params] = useSearchParams();
  const page = readPage(params);
  const results = useResource(resource('GET /api/search', { query: { q: term, page } }), { keep: true });
  const data = results.data;

  return (
    <div className="cat-search">
      <h1>Výsledky hľadania „{term}“</h1>
      <p className="cat-toolbar__count" aria-live="polite">
        {data ? (data.meta.total > 0 ? foundText(data) : '\u00a0') : results.status === 'error' ? '\u00a0' : 'Hľadám…'}
      </p>
      {results.status === 'error' && (
        <LoadFailed className="cat-empty" onRetry={results.reload}>
          {results.error instanceof ApiError && results.error.status >= 400 && results.error.status < 500
            ? results.error.message
            : 'Hľadanie sa nepodarilo. Skontrolujte pripojenie a skúste to znova.'}
        </LoadFailed>
      )}
      {data && data.meta.total > 0 && data.categories.length > 0 && (
        <section className="cat-section" aria-labelledby="search-categories">
          <h2 id="search-categories">Kategórie</h2>
          <CategoryLinks categories={data.categories} label="Nájdené kategórie" />
        </section>
      )}
      {results.status === 'ready' && data && data.meta.total === 0 && <NoResults term={term} categories={data.categories} />}
      <div
        className={results.stale ? 'cat-results__grid cat-results__grid--stale' : 'cat-results__grid'}
        aria-busy={results.status === 'loading'}
      >
        {data
          ? data.data.length > 0 && <ProductGrid products={data.data} label={`Produkty pre „${term}“`} />
          : results.status === 'loading' && <ProductGridPlaceholder />}
      </div>
      {data && data.meta.total > 0 && <PaginationNav page={Math.min(page, data.meta.pageCount)} total={data.meta.total} />}
    </div>
  );
}
