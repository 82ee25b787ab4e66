import { useParams, resource } from '@shop/shared-kernel';
import { dataOf, usePageMeta, useResource } from '@shop/shared-kernel/react';
import { ProductListing, useListingResources } from '../components/product-listing.tsx';
import { useCatalogStyles } from '../use-catalog-styles.ts';
import { useListingCanonical } from '../listing/use-listing-canonical.ts';
import { shopPaths } from '@shop/shared-kernel/contract';

export default function BrandPage() {
  useCatalogStyles();
  const url = useParams().brand ?? '';
  const listing = useListingResources({ brand: url });
  const brand = useResource(resource('GET /api/brand/:url', { params: { url } }), { select: dataOf });
  const name = brand.data?.b_name ?? null;
  const canonical = useListingCanonical(shopPaths.brand(url));
  usePageMeta({ title: name, description: name ? `Produkty značky ${name} za výhodné ceny.` : undefined, canonical });
  return (
    <div>
      <h1>{name ?? ' '}</h1>
      <ProductListing resources={listing} label={`Produkty značky ${name ?? ''}`} showBrandFacet={false} />
    </div>
  );
}
