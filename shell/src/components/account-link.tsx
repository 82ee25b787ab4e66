import { UserIcon } from './icons.tsx';
import { Link, useAuthStore } from '@shop/shared-kernel';
import { isAuthenticated } from '@shop/shared-kernel/rules';
import { shopPaths } from '@shop/shared-kernel/contract';

export function AccountLink() {
  const signedIn = useAuthStore((state) => isAuthenticated(state.auth));
  return signedIn ? (
    <Link to={shopPaths.profile()} className="header-link">
      <UserIcon />
      <span>Môj účet</span>
    </Link>
  ) : (
    <Link to={shopPaths.signIn()} className="header-link">
      <UserIcon />
      <span>Prihlásiť sa</span>
    </Link>
  );
}
