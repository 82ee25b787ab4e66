/**
 * Kernel startup (requirements R4.4, R4.5, R8.4): send a sign-out the API never
 * confirmed (and again whenever the browser comes back online), hydrate the basket
 * from storage, refresh every line's variant data, and for a signed-in user fetch
 * and re-apply the active coupon. Every failure is silently ignored. Calling
 * initKernel again returns the same promise.
 */
import { finishPendingLogout, useAuthStore } from './auth-store.ts';
import { isAuthenticated } from '../rules/auth-token.ts';
import { useBasketStore } from './basket-store.ts';
import { useCouponStore } from './coupon-store.ts';

let started: Promise<void> | null = null;

async function ignoreFailure(step: () => void | Promise<void>): Promise<void> {
  try {
    await step();
  } catch {
    // requirements R8.4: failed startup loads are silently ignored
  }
}

async function start(): Promise<void> {
  // Not awaited: the basket does not wait for it.
  void finishPendingLogout();
  globalThis.addEventListener?.('online', () => void finishPendingLogout());
  await ignoreFailure(() => useBasketStore.getState().hydrate());
  await ignoreFailure(() => useBasketStore.getState().refreshLines());
  if (isAuthenticated(useAuthStore.getState())) {
    await ignoreFailure(() => useCouponStore.getState().reapplyActive());
  }
}

export function initKernel(): Promise<void> {
  started ??= start();
  return started;
}

/** Test hook: lets the next initKernel() run again. */
export function resetKernelStartupForTests(): void {
  started = null;
}
