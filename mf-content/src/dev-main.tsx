// Standalone development harness: this area's pages without the shell.
import { createRoot } from 'react-dom/client';
import { createStandaloneRouter, StandaloneRoutes } from '@shop/shared-kernel/standalone';
import StaticPage from './pages/static-page.tsx';
import BlogPage from './pages/blog-page.tsx';
import BlogPostPage from './pages/blog-post-page.tsx';
import { shopRoutePatterns as paths } from '@shop/shared-kernel/contract';

const router = createStandaloneRouter(
  [
    { path: paths.page, element: <StaticPage /> },
    { path: paths.blog, element: <BlogPage /> },
    { path: paths.blogTag, element: <BlogPage /> },
    { path: paths.blogPost, element: <BlogPostPage /> },
  ],
  { history: 'browser' },
);
createRoot(document.getElementById('root')!).render(<StandaloneRoutes router={router} />);
