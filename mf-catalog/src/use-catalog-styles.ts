import { useAreaStyles } from '@shop/shared-kernel/react';
import css from './catalog.css?inline';

/** Adds the catalog's styles once, from whichever page loads first. */
export function useCatalogStyles(): void {
  useAreaStyles('catalog', css);
}
