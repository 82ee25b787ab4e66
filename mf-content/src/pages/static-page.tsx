import { useParams } from '@shop/shared-kernel';
import { PageContent } from '../components/page-content.tsx';
import { useContentStyles } from '../use-content-styles.ts';

/** A static content page /s/{site}; a missing slug becomes the shell's not-found page. */
export default function StaticPage() {
  useContentStyles();
  const slug = useParams().site ?? '';
  return <PageContent slug={slug} key={slug} />;
}
