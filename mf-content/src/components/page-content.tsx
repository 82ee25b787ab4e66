import type { ReactNode } from 'react';
import { resource } from '@shop/shared-kernel';
import { dataOf, LoadFailed, trustedHtml, usePageMeta, useResource } from '@shop/shared-kernel/react';
import { shopPaths } from '@shop/shared-kernel/contract';

/**
 * A static page from the API (its HTML is sanitised on the server) with an
 * optional extra part: the contact form, the loyalty points.
 */
export function PageContent({ slug, children }: { slug: string; children?: ReactNode }) {
  const page = useResource(resource('GET /api/page/:slug', { params: { slug } }), { select: dataOf });
  usePageMeta({ title: page.data?.title ?? null, description: page.data?.metaDescription, canonical: shopPaths.page(slug) });
  if (page.status === 'error') {
    return <LoadFailed onRetry={page.reload}>Stránku sa nepodarilo načítať.</LoadFailed>;
  }
  if (!page.data) return <div className="page-skeleton" aria-busy="true" />;
  return (
    <article className="cnt-page">
      <h1>{page.data.title}</h1>
      {/* Sanitised by the API; written through the shop's Trusted Types policy. */}
      <div dangerouslySetInnerHTML={{ __html: trustedHtml(page.data.contentHtml) }} />
      {children}
    </article>
  );
}
