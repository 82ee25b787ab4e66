// Standalone development harness: this area's pages without the shell.
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { initKernel } from '@shop/shared-kernel';
import LoginPage from './pages/login-page.tsx';
import ProfilePage from './pages/profile-page.tsx';

void initKernel();
const router = createBrowserRouter([
  { path: '/account/login', Component: LoginPage },
  { path: '/account/profile', Component: ProfilePage },
]);
createRoot(document.getElementById('root')!).render(<RouterProvider router={router} />);
