// Standalone development harness: this area's pages without the shell.
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import StaticPage from './pages/static-page.tsx';

const router = createBrowserRouter([{ path: '/s/:site', Component: StaticPage }]);
createRoot(document.getElementById('root')!).render(<RouterProvider router={router} />);
