import { usePageMeta } from '@shop/shared-kernel/react';
import { ProductListing, useListingResources } from '../components/product-listing.tsx';
import { useCatalogStyles } from '../use-catalog-styles.ts';
import { useListingCanonical } from '../listing/use-listing-canonical.ts';
import { shopPaths } from '@shop/shared-kernel/contract';

export default function SalePage() {
  useCatalogStyles();
  const listing = useListingResources({ sale: 1 });
  usePageMeta({
    title: 'Výpredaj',
    description: 'Stavebný materiál v zľave – výpredaj za najnižšie ceny.',
    canonical: useListingCanonical(shopPaths.sale()),
  });
  return (
    <div>
      <h1>Výpredaj</h1>
      <ProductListing resources={listing} label="Produkty vo výpredaji" />
    </div>
  );
}
