import { useEffect } from 'react';

/** The tab's title for a page of the console. */
export function useTitle(page: string): void {
  useEffect(() => {
    document.title = `${page} – Prevádzka obchodu`;
  }, [page]);
}
