import { useSearchParams } from '@shop/shared-kernel';
import { pageHref } from '@shop/shared-kernel/rules';
import { readPage } from './listing-params.ts';

/** Canonical URL of a listing page: its path and page number; filters and sort are variants of it. */
export function useListingCanonical(pathname: string): string {
  const [params] = useSearchParams();
  return pageHref(pathname, '', readPage(params));
}
