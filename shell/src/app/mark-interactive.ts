import { useEffect } from 'react';

/**
 * Marks the document (`<html data-interactive>`) once a page is interactive: hydrated from the
 * server's HTML, or rendered here. Until then a server-rendered link is a plain link (a full page
 * load); tests and tools that need the shop's own navigation wait for this.
 */
export function useMarkInteractive(): void {
  useEffect(() => {
    document.documentElement.dataset.interactive = 'true';
  }, []);
}
