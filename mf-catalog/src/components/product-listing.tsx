import { useEffect } from 'react';
import { useNavigate, useSearchParams, useLocation } from 'react-router';
import { api, useResource, withoutPageQuery, type ProductSort } from '@shop/shared-kernel';
import { ProductGrid } from './product-card.tsx';
import { Pagination } from './pagination.tsx';

const sortLabels: Record<ProductSort, string> = {
  popular: 'Najpredávanejšie',
  'price-asc': 'Od najlacnejšieho',
  'price-desc': 'Od najdrahšieho',
  name: 'Podľa názvu',
  newest: 'Najnovšie',
};

function readSort(value: string | null): ProductSort {
  return value && value in sortLabels ? (value as ProductSort) : 'popular';
}

function readPage(value: string | null): number {
  const page = Number(value ?? '1');
  return Number.isInteger(page) && page > 0 ? page : 1;
}

/** A paged, sortable product listing whose state lives in the URL. */
export function ProductListing({ filter, label }: { filter: { category?: string; brand?: string; sale?: 1 }; label: string }) {
  const [params, setParams] = useSearchParams();
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  const page = readPage(params.get('page'));
  const sort = readSort(params.get('sort'));
  const query = { ...filter, page, sort };
  const listing = useResource(JSON.stringify(query), () => api.products(query));

  // A page number above the page count resets to 1 and drops the page query.
  const pageCount = listing.data?.meta.pageCount ?? 0;
  const outOfRange = listing.status === 'ready' && page > 1 && page > pageCount;
  useEffect(() => {
    if (outOfRange) void navigate(pathname + withoutPageQuery(search), { replace: true });
  }, [outOfRange, navigate, pathname, search]);

  const changeSort = (value: string) => {
    const next = new URLSearchParams(params);
    next.delete('page');
    if (value === 'popular') next.delete('sort');
    else next.set('sort', value);
    setParams(next);
  };

  return (
    <section className="cat-section" aria-busy={listing.status === 'loading'}>
      <div className="cat-toolbar">
        <p>{listing.data ? `${listing.data.meta.total} produktov` : ' '}</p>
        <label>
          Zoradiť
          <select value={sort} onChange={(event) => changeSort(event.target.value)}>
            {Object.entries(sortLabels).map(([value, text]) => (
              <option key={value} value={value}>{text}</option>
            ))}
          </select>
        </label>
      </div>
      {listing.status === 'error' && (
        <div className="cat-empty" role="alert">
          <p>Produkty sa nepodarilo načítať.</p>
          <button type="button" className="button" onClick={listing.reload}>Skúsiť znova</button>
        </div>
      )}
      {listing.status === 'ready' && listing.data.data.length === 0 && !outOfRange && (
        <p className="cat-empty">V tejto ponuke zatiaľ nie sú žiadne produkty.</p>
      )}
      {listing.data && <ProductGrid products={listing.data.data} label={label} />}
      {listing.data && <Pagination page={page} total={listing.data.meta.total} />}
    </section>
  );
}
