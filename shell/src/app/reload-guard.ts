/**
 * At most one automatic full reload in 10 seconds (requirements R9.13), so a
 * broken deploy cannot put a shopper's tab into a reload loop.
 */
export const RELOAD_GUARD_MS = 10_000;
const KEY = 'shop:last-auto-reload';

export function reloadOnce(reload: () => void = () => window.location.reload()): boolean {
  const last = Number(sessionStorage.getItem(KEY) ?? 0);
  if (Date.now() - last < RELOAD_GUARD_MS) return false;
  sessionStorage.setItem(KEY, String(Date.now()));
  reload();
  return true;
}
