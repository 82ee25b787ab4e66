import { useContext, useEffect } from 'react';
import { ServerRenderContext } from './server-render.ts';
import { trustedJsonScript } from './trusted-types.ts';

/** Adds a JSON-LD block (structured data) to the document head while the page is shown. */
export function useJsonLd(id: string, data: Record<string, unknown> | null) {
  const json = data ? JSON.stringify({ '@context': 'https://schema.org', ...data }) : null;
  const server = useContext(ServerRenderContext);
  if (json) server?.jsonLd?.(id, json);
  useEffect(() => {
    // A block the server rendered into the head is replaced by this one.
    document.head.querySelector(`script[data-json-ld="${id}"][data-server]`)?.remove();
    if (!json) return;
    const script = document.createElement('script');
    script.type = 'application/ld+json';
    script.dataset.jsonLd = id;
    // A script's text is a Trusted Types sink, JSON-LD's too: through the shop's policy, which admits JSON only.
    script.textContent = trustedJsonScript(json.replace(/</g, '\\u003c'));
    document.head.append(script);
    return () => script.remove();
  }, [id, json]);
}
