// Standalone development harness: this area's pages without the shell.
import { createRoot } from 'react-dom/client';
import { createStandaloneRouter, StandaloneRoutes } from '@shop/shared-kernel/standalone';
import StaticPage from './pages/static-page.tsx';
import BlogPage from './pages/blog-page.tsx';
import BlogPostPage from './pages/blog-post-page.tsx';

const router = createStandaloneRouter([
  { path: '/s/:site', element: <StaticPage /> },
  { path: '/blog', element: <BlogPage /> },
  { path: '/blog/:tag', element: <BlogPage /> },
  { path: '/blog/clanok/:post', element: <BlogPostPage /> },
], { history: 'browser' });
createRoot(document.getElementById('root')!).render(<StandaloneRoutes router={router} />);
