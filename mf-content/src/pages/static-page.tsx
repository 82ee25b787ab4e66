import { useParams } from 'react-router';
import { api, usePageMeta, useResource } from '@shop/shared-kernel';
import { useContentStyles } from '../use-content-styles.ts';

/** A static content page; the API sanitises its HTML before storing and serving it. */
export default function StaticPage() {
  useContentStyles();
  const slug = useParams().site ?? '';
  const page = useResource(`page:${slug}`, () => api.page(slug).then((answer) => answer.data));
  usePageMeta({ title: page.data?.title ?? null, description: page.data?.metaDescription, canonical: `/s/${slug}` });
  if (page.status === 'error') {
    return (
      <div role="alert">
        <p>Stránku sa nepodarilo načítať.</p>
        <button type="button" className="button" onClick={page.reload}>Skúsiť znova</button>
      </div>
    );
  }
  if (!page.data) return <div className="page-skeleton" aria-busy="true" />;
  return (
    <article className="cnt-page">
      <h1>{page.data.title}</h1>
      <div dangerouslySetInnerHTML={{ __html: page.data.contentHtml }} />
    </article>
  );
}
