import { useEffect } from 'react';

/** Adds a JSON-LD block (structured data) to the document head while the page is shown. */
export function useJsonLd(id: string, data: Record<string, unknown> | null) {
  const json = data ? JSON.stringify({ '@context': 'https://schema.org', ...data }) : null;
  useEffect(() => {
    if (!json) return;
    const script = document.createElement('script');
    script.type = 'application/ld+json';
    script.dataset.jsonLd = id;
    script.textContent = json.replace(/</g, '\\u003c');
    document.head.append(script);
    return () => script.remove();
  }, [id, json]);
}
