import { UserIcon } from './icons.tsx';
import { Link, useAuthStore } from '@shop/shared-kernel';
import { isAuthenticated } from '@shop/shared-kernel/rules';

export function AccountLink() {
  const signedIn = useAuthStore((state) => isAuthenticated(state.auth));
  return signedIn ? (
    <Link to="/account/profile" className="header-link">
      <UserIcon />
      <span>Môj účet</span>
    </Link>
  ) : (
    <Link to="/account/login" className="header-link">
      <UserIcon />
      <span>Prihlásiť sa</span>
    </Link>
  );
}
