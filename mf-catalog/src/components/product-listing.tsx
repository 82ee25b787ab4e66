import { useEffect, useId, useRef } from 'react';
import { useLocation, useNavigate, useSearchParams, PaginationNav } from '@shop/shared-kernel';
import { dataOf, LoadFailed, useResource } from '@shop/shared-kernel/react';
import { withoutPageQuery } from '@shop/shared-kernel/rules';
import type { ProductSort } from '@shop/shared-kernel/contract';
import { listingCalls, type ListingScope } from '../listing/listing-calls.ts';
import { ProductGrid, ProductGridPlaceholder } from './product-card.tsx';
import { FilterPanel } from '../listing/filter-panel.tsx';
import { activeFilterCount, clearFilters, setSort, sortLabels } from '../listing/listing-params.ts';
import { productCountText } from '../listing/count-text.ts';

/** A listing's cards in its first row on a phone (two columns): the page's largest paint is one of their pictures. */
const LISTING_FIRST_ROW = 2;

/**
 * A listing's products and filters for the URL's page, sort and filters. A page calls it first
 * thing, before anything it waits for, so both are asked for with the page's own data (on the
 * server, in the render that asks for the page's data; in the browser, in parallel with it).
 */
export function useListingResources(filter: ListingScope) {
  const [params] = useSearchParams();
  const calls = listingCalls(filter, params);
  // What stays shown while the next key loads is this listing's, never another category's or brand's.
  const scope = JSON.stringify(filter);
  const listing = useResource(calls.listing, { keep: scope });
  const facets = useResource(calls.facets, { keep: scope, select: dataOf });
  return { listing, facets, page: calls.page, sort: calls.sort };
}

export type ListingResources = ReturnType<typeof useListingResources>;

/**
 * A paged, sortable, filterable product listing whose whole state lives in the URL. While the
 * next page or filter loads, the current products stay in place (dimmed), so nothing jumps.
 */
export function ProductListing({
  resources,
  label,
  showBrandFacet = true,
}: {
  resources: ListingResources;
  label: string;
  showBrandFacet?: boolean;
}) {
  const [params, setParams] = useSearchParams();
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  const headingId = useId();
  const { listing, facets, page, sort } = resources;
  const filterCount = activeFilterCount(params);

  // A page number above the page count resets to 1 and drops the page query.
  const pageCount = listing.status === 'ready' ? (listing.data?.meta.pageCount ?? 0) : 0;
  const outOfRange = listing.status === 'ready' && page > 1 && page > pageCount;
  useEffect(() => {
    if (outOfRange) void navigate(pathname + withoutPageQuery(search), { replace: true });
  }, [outOfRange, navigate, pathname, search]);

  // The filters start open where there is room for them beside the products.
  const filtersRef = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    if (filtersRef.current && window.matchMedia?.('(min-width: 800px)').matches) filtersRef.current.open = true;
  }, []);

  const change = (next: URLSearchParams) => setParams(next, { preventScrollReset: true });
  const data = listing.data;

  return (
    <section className="cat-listing" aria-labelledby={headingId}>
      <h2 id={headingId} className="visually-hidden">
        {label}
      </h2>
      <details className="cat-filters" data-testid="filters" ref={filtersRef}>
        <summary>Filtre{filterCount > 0 ? ` (${filterCount})` : ''}</summary>
        {facets.data ? (
          <>
            <p className="cat-muted cat-filters__note">
              Čísla pri hodnotách udávajú počet produktov; produkt s variantmi v rôznych hodnotách (napr. hrúbkach) sa počíta pri každej z
              nich.
            </p>
            <FilterPanel facets={facets.data} params={params} onChange={change} showBrands={showBrandFacet} />
          </>
        ) : facets.status === 'error' ? (
          <p role="alert">Filtre sa nepodarilo načítať.</p>
        ) : (
          <p className="cat-muted">Načítavam filtre…</p>
        )}
        {filterCount > 0 && (
          <button type="button" className="button cat-filters__clear" onClick={() => change(clearFilters(params))}>
            Zrušiť všetky filtre
          </button>
        )}
      </details>
      <div className="cat-results">
        <div className="cat-toolbar">
          <p className="cat-toolbar__count" aria-live="polite">
            {data ? productCountText(data.meta.total) : '\u00a0'}
          </p>
          <label>
            Zoradiť
            <select value={sort} onChange={(event) => change(setSort(params, event.target.value as ProductSort))}>
              {Object.entries(sortLabels).map(([value, text]) => (
                <option key={value} value={value}>
                  {text}
                </option>
              ))}
            </select>
          </label>
        </div>
        {listing.status === 'error' && (
          <LoadFailed className="cat-empty" onRetry={listing.reload}>
            Produkty sa nepodarilo načítať. Skontrolujte pripojenie a skúste to znova.
          </LoadFailed>
        )}
        {listing.status === 'ready' && data && data.data.length === 0 && !outOfRange && (
          <div className="cat-empty">
            {filterCount > 0 ? (
              <>
                <p>Zvoleným filtrom nezodpovedá žiadny produkt.</p>
                <button type="button" className="button" onClick={() => change(clearFilters(params))}>
                  Zrušiť všetky filtre
                </button>
              </>
            ) : (
              <p>V tejto ponuke zatiaľ nie sú žiadne produkty.</p>
            )}
          </div>
        )}
        <div
          className={listing.stale ? 'cat-results__grid cat-results__grid--stale' : 'cat-results__grid'}
          aria-busy={listing.status === 'loading'}
        >
          {data ? (
            <ProductGrid products={data.data} label={label} firstRow={LISTING_FIRST_ROW} />
          ) : (
            listing.status === 'loading' && <ProductGridPlaceholder />
          )}
        </div>
        {data && <PaginationNav page={Math.min(page, data.meta.pageCount)} total={data.meta.total} />}
      </div>
    </section>
  );
}
