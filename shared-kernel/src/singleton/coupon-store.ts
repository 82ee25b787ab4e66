/**
 * The discount coupon (requirements R4.3, R5.1, R7.2, R8.2):
 * none → applying → valid | invalid. Coupons apply only for a signed-in
 * user (the call needs the user id).
 *
 * Decisions where the requirements are silent:
 *  - An empty code or a signed-out shopper only sets the message; the status
 *    and any applied coupon stay as they were, and no call is made.
 *  - A failed call sets status 'invalid', clears the coupon and shows
 *    'Chyba pri aplikovaní kupónu'.
 *  - While applying, the previous coupon and discount stay until the answer
 *    arrives; only the answer to the latest apply is used.
 *
 * The other stores do not know this one: it re-validates the coupon when the
 * shopper edits the basket (basket:edited) and clears it when the basket is
 * emptied (basket:cleared) or on a sign-out (auth:signed-out), on the bus.
 */
import { create } from 'zustand';
import { api } from './api-client.ts';
import { useAuthStore } from './auth-store.ts';
import { signedInUserId } from '../rules/auth-token.ts';
import { useBasketStore } from './basket-store.ts';
import type { Coupon } from '../contract/index.ts';
import { bus, type CouponStatus } from './event-bus.ts';
import { basketTotal, couponDiscountAmount } from '../rules/money.ts';

export type { CouponStatus } from './event-bus.ts';

export const COUPON_MESSAGES = {
  empty: 'Kód je prázdny',
  signedOut: 'Kupón môže uplatniť iba prihlásený zákazník',
  failed: 'Chyba pri aplikovaní kupónu',
  invalid: 'Kupón nie je platný',
} as const;

export type CouponStore = {
  status: CouponStatus;
  coupon: Coupon | null;
  /** Discount in thousandths of a euro. */
  discount: number;
  /** Message for the shopper (from the API or one of COUPON_MESSAGES), null when none. */
  message: string | null;
  /** Validates and applies a code; resolves to the resulting status. */
  apply: (code: string) => Promise<CouponStatus>;
  /** Re-applies the current code against the current basket; an invalid answer clears the coupon. */
  revalidate: () => Promise<void>;
  /** Clears the coupon and deactivates it on the server (POST /api/coupon/deactive). */
  remove: () => Promise<void>;
  /** Clears the coupon locally, no call. */
  clear: () => void;
  /** Startup for a signed-in user: fetches the active coupon and applies it, or clears when none. */
  reapplyActive: () => Promise<void>;
};

function currentUserId(): number | null {
  return signedInUserId(useAuthStore.getState().auth);
}

/** Number of the latest apply; answers to older ones are ignored. */
let applySeq = 0;
/** The code of an apply still waiting for its answer. */
let pendingCode: string | null = null;

export const useCouponStore = create<CouponStore>()((set, get) => {
  const update = (partial: Partial<Pick<CouponStore, 'status' | 'coupon' | 'discount' | 'message'>>) => {
    set(partial);
    const { status, coupon } = get();
    bus.emit('coupon:changed', { status, code: coupon?.code ?? null });
  };

  const clear = () => {
    applySeq += 1;
    pendingCode = null;
    update({ status: 'none', coupon: null, discount: 0, message: null });
  };

  const apply = async (code: string): Promise<CouponStatus> => {
    const trimmed = code.trim();
    if (!trimmed) {
      update({ message: COUPON_MESSAGES.empty });
      return get().status;
    }
    const userId = currentUserId();
    if (userId === null) {
      update({ message: COUPON_MESSAGES.signedOut });
      return get().status;
    }

    const seq = ++applySeq;
    pendingCode = trimmed;
    update({ status: 'applying', message: null });
    const lines = useBasketStore.getState().lines;
    try {
      const answer = await api.call('POST /api/coupon/validate', {
        body: { code: trimmed, cart: lines, total: basketTotal(lines), userId },
      });
      if (seq !== applySeq) return get().status;
      if (typeof answer !== 'object' || answer === null || typeof answer.valid !== 'boolean') {
        throw new TypeError('Unexpected coupon answer');
      }
      pendingCode = null;
      if (answer.valid) {
        update({
          status: 'valid',
          coupon: answer.coupon?.code ? answer.coupon : { code: trimmed },
          discount: couponDiscountAmount(answer.discount),
          message: answer.message || null,
        });
      } else {
        update({
          status: 'invalid',
          coupon: null,
          discount: 0,
          message: answer.message || COUPON_MESSAGES.invalid,
        });
      }
    } catch {
      if (seq !== applySeq) return get().status;
      pendingCode = null;
      update({ status: 'invalid', coupon: null, discount: 0, message: COUPON_MESSAGES.failed });
    }
    return get().status;
  };

  return {
    status: 'none',
    coupon: null,
    discount: 0,
    message: null,
    apply,
    clear,

    revalidate: async () => {
      const code = get().coupon?.code ?? pendingCode;
      if (!code) return;
      if (currentUserId() === null) {
        clear();
        return;
      }
      await apply(code);
    },

    remove: async () => {
      const userId = currentUserId();
      clear();
      if (userId === null) return;
      await api.call('POST /api/coupon/deactive', { query: { userId } }).catch(() => undefined);
    },

    reapplyActive: async () => {
      const userId = currentUserId();
      if (userId === null) {
        clear();
        return;
      }
      try {
        const answer = await api.call('GET /api/coupon/active', { query: { user_id: userId } });
        const code = answer?.coupon?.code;
        if (code) await apply(code);
        else clear();
      } catch {
        // requirements R8.4: startup failures are silently ignored
      }
    },
  };
});

bus.on('basket:edited', () => {
  void useCouponStore.getState().revalidate();
});
bus.on('basket:cleared', () => useCouponStore.getState().clear());
bus.on('auth:signed-out', () => useCouponStore.getState().clear());
