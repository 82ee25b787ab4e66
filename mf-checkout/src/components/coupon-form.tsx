import { useState, type FormEvent } from 'react';
import { Link, useAuthStore, useCouponStore } from '@shop/shared-kernel';
import { isAuthenticated } from '@shop/shared-kernel/rules';
import { shopPaths } from '@shop/shared-kernel/contract';

/** Coupons apply only for a signed-in shopper (requirements R6.2). */
export function CouponForm() {
  const signedIn = useAuthStore((state) => isAuthenticated(state.auth));
  const { status, coupon, message, apply, remove } = useCouponStore();
  const [code, setCode] = useState('');

  if (!signedIn) {
    return (
      <p className="chk-message">
        Zľavový kupón môžete uplatniť po <Link to={shopPaths.signIn(shopPaths.cart())}>prihlásení</Link>.
      </p>
    );
  }
  if (status === 'valid' && coupon) {
    return (
      <p className="chk-message chk-message--ok">
        Kupón <strong>{coupon.code}</strong> je uplatnený.{' '}
        <button type="button" className="chk-link-button" onClick={() => void remove()}>
          Zrušiť kupón
        </button>
      </p>
    );
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void apply(code);
  };
  return (
    <form className="chk-coupon" onSubmit={submit} noValidate>
      <label htmlFor="coupon-code" className="visually-hidden">
        Zľavový kupón
      </label>
      <input id="coupon-code" placeholder="Zľavový kupón" value={code} onChange={(event) => setCode(event.target.value)} />
      <button type="submit" className="button" disabled={status === 'applying'}>
        Uplatniť
      </button>
      {message && (
        <p className="chk-message chk-message--error" role="alert">
          {message}
        </p>
      )}
    </form>
  );
}
