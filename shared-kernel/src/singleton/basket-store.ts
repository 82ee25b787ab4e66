/**
 * The basket (requirements R3.2, R4.2). Every change persists cartData and
 * emits what happened (basket:added, :removed, :edited, :cleared); the shell's
 * header reads the store itself. Changing an amount or deleting a line re-validates
 * the coupon; so does adding a line (the total changed, so a percentage
 * discount would otherwise be stale). Clearing empties the basket, the
 * price and the coupon. The coupon store does both, on basket:edited and
 * basket:cleared: this store does not know the coupon store.
 */
import { create } from 'zustand';
import { api } from './api-client.ts';
import { readStoredBasket, writeStoredBasket } from './basket-storage.ts';
import { getLocalStorage } from './browser-storage.ts';
import type { BasketLine, VariantData } from '../contract/index.ts';
import { bus } from './event-bus.ts';
import { commerceItem } from '../rules/commerce-item.ts';
import { basketTotal } from '../rules/money.ts';
import { basketCookieText, basketCookieValue } from '../rules/basket-cookie.ts';

export type BasketStore = {
  lines: BasketLine[];
  /** Adds a line; for a v_id already in the basket the amounts are added. */
  add: (line: BasketLine) => void;
  /** Sets the amount of a line (below 1 removes it) and re-validates the coupon. */
  updateAmount: (v_id: number, amount: number) => void;
  /** Deletes a line and re-validates the coupon. */
  remove: (v_id: number) => void;
  /** Empties the basket, the price and the coupon (locally). */
  clear: () => void;
  /** Reads the lines from storage (cartData). */
  hydrate: () => void;
  /** Replaces each line's variantData from POST /api/product/variant/detail; failures keep the line as it is. */
  refreshLines: () => Promise<void>;
};

function readInitialLines(): BasketLine[] {
  const storage = getLocalStorage();
  return storage ? readStoredBasket(storage) : [];
}

function isVariantData(value: unknown): value is VariantData {
  return typeof value === 'object' && value !== null && typeof (value as VariantData).v_sellPrice === 'number';
}

function isValidAmount(amount: number): boolean {
  return Number.isFinite(amount) && amount > 0;
}

export const useBasketStore = create<BasketStore>()((set, get) => {
  const commit = (lines: BasketLine[]) => {
    set({ lines });
    const storage = getLocalStorage();
    if (storage) writeStoredBasket(storage, lines);
  };
  let refreshing: { ids: string; done: Promise<void> } | null = null;
  const refresh = async (lines: BasketLine[]) => {
    const answers = await Promise.all(
      lines.map((line) =>
        api.call('POST /api/product/variant/detail', { body: { v_id: line.v_id } }).then(
          (answer) => (isVariantData(answer?.data) ? answer.data : null),
          // A variant the shop no longer sells (404) can no longer be bought: the line says so.
          (error: unknown) =>
            (error as { status?: unknown } | null)?.status === 404 ? { ...line.variantData, v_availability: 'unavailable' as const } : null,
        ),
      ),
    );
    const fresh = new Map<number, VariantData>();
    lines.forEach((line, i) => {
      const data = answers[i];
      if (data) fresh.set(line.v_id, data);
    });
    if (fresh.size === 0) return;
    // Merge into the current lines: the shopper may have changed the basket meanwhile.
    commit(
      get().lines.map((line) => {
        const data = fresh.get(line.v_id);
        return data ? { ...line, variantData: data } : line;
      }),
    );
  };

  return {
    lines: [],

    add: (line) => {
      if (!isValidAmount(line.amount)) return;
      const lines = get().lines;
      const existing = lines.find((l) => l.v_id === line.v_id);
      const next = existing
        ? lines.map((l) => (l.v_id === line.v_id ? { ...l, variantData: line.variantData, amount: l.amount + line.amount } : l))
        : [...lines, { ...line }];
      commit(next);
      bus.emit('basket:added', { item: commerceItem(line.variantData, line.amount), basketTotal: basketTotal(next) });
      bus.emit('basket:edited', { lines: next });
    },

    updateAmount: (v_id, amount) => {
      const lines = get().lines;
      if (!lines.some((l) => l.v_id === v_id)) return;
      const next =
        Number.isFinite(amount) && amount >= 1
          ? lines.map((l) => (l.v_id === v_id ? { ...l, amount } : l))
          : lines.filter((l) => l.v_id !== v_id);
      commit(next);
      bus.emit('basket:edited', { lines: next });
    },

    remove: (v_id) => {
      const lines = get().lines;
      const removed = lines.find((l) => l.v_id === v_id);
      if (!removed) return;
      const next = lines.filter((l) => l.v_id !== v_id);
      commit(next);
      bus.emit('basket:removed', { item: commerceItem(removed.variantData, removed.amount), basketTotal: basketTotal(next) });
      bus.emit('basket:edited', { lines: next });
    },

    clear: () => {
      commit([]);
      bus.emit('basket:cleared', { lines: [] });
    },

    hydrate: () => {
      const lines = readInitialLines();
      set({ lines });
    },

    refreshLines: () => {
      const lines = get().lines;
      if (lines.length === 0) return Promise.resolve();
      // One page load asks twice (the kernel's start and the basket page): a refresh of the same
      // lines already under way answers both.
      const ids = lines.map((line) => line.v_id).join(',');
      if (refreshing?.ids === ids) return refreshing.done;
      const done = refresh(lines).finally(() => {
        if (refreshing?.done === done) refreshing = null;
      });
      refreshing = { ids, done };
      return done;
    },
  };
});

/** The lines' ids and amounts in the basket's cookie, for the server's render of the basket page (rules/basket-cookie.ts). */
let mirrored: string | null = null;
function mirrorToCookie(lines: readonly BasketLine[]): void {
  if (typeof document === 'undefined') return;
  const value = basketCookieValue(lines);
  if (value === mirrored) return;
  mirrored = value;
  document.cookie = basketCookieText(lines, typeof location !== 'undefined' && location.protocol === 'https:');
}
useBasketStore.subscribe((state) => mirrorToCookie(state.lines));

// Created with what a server render sees (zustand keeps it as the initial state, which React
// uses while hydrating a server-rendered page), then given this browser's state (and its cookie
// written: a basket stored before the cookie existed, or one that expired, is mirrored at once).
useBasketStore.setState({ lines: readInitialLines() });
