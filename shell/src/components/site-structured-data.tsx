import { useLocation } from 'react-router';
import { useJsonLd, usePublicOrigin } from '@shop/shared-kernel/react';
import type { SiteData } from '@shop/shared-kernel/contract';
import { useSite } from '../app/site-data.ts';
import { shopRoutePatterns } from '@shop/shared-kernel/contract';

function organization(site: SiteData, origin: string): Record<string, unknown> {
  return {
    '@type': 'Organization',
    name: site.name,
    legalName: site.company.name,
    url: `${origin}/`,
    email: site.email,
    telephone: site.phone,
    vatID: site.company.icDph || undefined,
    address: {
      '@type': 'PostalAddress',
      streetAddress: site.address.street,
      addressLocality: site.address.city,
      postalCode: site.address.zip,
      addressCountry: site.address.country,
    },
  };
}

function website(site: SiteData, origin: string): Record<string, unknown> {
  return {
    '@type': 'WebSite',
    name: site.name,
    url: `${origin}/`,
    inLanguage: 'sk',
    potentialAction: {
      '@type': 'SearchAction',
      target: { '@type': 'EntryPoint', urlTemplate: `${origin}${shopRoutePatterns.search.replace(':search', '{search_term_string}')}` },
      'query-input': 'required name=search_term_string',
    },
  };
}

/** The shop and its search as structured data, on the home page (where search engines look for them). */
export function SiteStructuredData() {
  const site = useSite();
  const origin = usePublicOrigin();
  const home = useLocation().pathname === '/';
  useJsonLd('organization', home && site ? organization(site, origin) : null);
  useJsonLd('website', home && site ? website(site, origin) : null);
  return null;
}
