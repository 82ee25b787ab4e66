import { Navigate, useLocation } from 'react-router';
import { api, isAuthenticated, useAuthStore, usePageMeta, useResource } from '@shop/shared-kernel';
import { useAccountStyles } from '../use-account-styles.ts';

function Profile() {
  const logout = useAuthStore((state) => state.logout);
  const me = useResource('me', () => api.me().then((answer) => answer.data));
  if (me.status === 'error') return <p role="alert">Profil sa nepodarilo načítať.</p>;
  if (!me.data) return <div aria-busy="true" className="page-skeleton" />;
  return (
    <>
      <dl className="acc-profile">
        <dt>Meno</dt>
        <dd>{me.data.name}</dd>
        <dt>E-mail</dt>
        <dd>{me.data.email}</dd>
      </dl>
      <p>
        <button type="button" className="button" onClick={() => void logout()}>Odhlásiť sa</button>
      </p>
    </>
  );
}

export default function ProfilePage() {
  useAccountStyles();
  usePageMeta({ title: 'Môj profil' });
  const signedIn = useAuthStore((state) => isAuthenticated(state.auth));
  const location = useLocation();
  if (!signedIn) return <Navigate to={`/account/login?next=${encodeURIComponent(location.pathname)}`} replace />;
  return (
    <section>
      <h1>Môj profil</h1>
      <Profile />
    </section>
  );
}
