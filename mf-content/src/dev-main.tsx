// Standalone development harness: this area's pages without the shell.
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import StaticPage from './pages/static-page.tsx';
import BlogPage from './pages/blog-page.tsx';
import BlogPostPage from './pages/blog-post-page.tsx';

const router = createBrowserRouter([
  { path: '/s/:site', Component: StaticPage },
  { path: '/blog', Component: BlogPage },
  { path: '/blog/:tag', Component: BlogPage },
  { path: '/blog/clanok/:post', Component: BlogPostPage },
]);
createRoot(document.getElementById('root')!).render(<RouterProvider router={router} />);
