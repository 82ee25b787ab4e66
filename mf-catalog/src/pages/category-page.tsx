import { Link, useParams, resource } from '@shop/shared-kernel';
import { dataOf, LoadFailed, useJsonLd, usePageMeta, usePublicOrigin, useResource } from '@shop/shared-kernel/react';
import { Breadcrumbs } from '../components/breadcrumbs.tsx';
import { ProductListing, useListingResources } from '../components/product-listing.tsx';
import { useCatalogStyles } from '../use-catalog-styles.ts';
import { useListingCanonical } from '../listing/use-listing-canonical.ts';
import { breadcrumbJsonLd } from '../structured-data.ts';
import { shopPaths } from '@shop/shared-kernel/contract';

export default function CategoryPage() {
  useCatalogStyles();
  const url = useParams().category ?? '';
  const listing = useListingResources({ category: url });
  const category = useResource(resource('GET /api/category/:url', { params: { url } }), { select: dataOf });
  const data = category.data;
  const canonical = useListingCanonical(shopPaths.category(url));
  usePageMeta({
    title: data?.cat_name ?? null,
    description: data ? `${data.cat_name} – široký výber za výhodné ceny vrátane DPH.` : undefined,
    canonical,
  });
  const origin = usePublicOrigin();
  useJsonLd('breadcrumbs', data ? breadcrumbJsonLd(data.breadcrumbs, origin) : null);

  if (category.status === 'error') {
    return (
      <LoadFailed className="cat-empty" onRetry={category.reload}>
        Kategóriu sa nepodarilo načítať.
      </LoadFailed>
    );
  }
  if (!data) return <div className="page-skeleton" aria-busy="true" />;
  return (
    <div>
      <Breadcrumbs items={data.breadcrumbs} />
      <h1>{data.cat_name}</h1>
      {data.cat_description && <p>{data.cat_description}</p>}
      {data.children.length > 0 && (
        <ul className="cat-tiles" aria-label="Podkategórie">
          {data.children.map((child) => (
            <li key={child.cat_id}>
              <Link to={shopPaths.category(child.cat_url)}>{child.cat_name}</Link>
            </li>
          ))}
        </ul>
      )}
      <ProductListing resources={listing} label={`Produkty v kategórii ${data.cat_name}`} />
    </div>
  );
}
