/**
 * The checkout draft: what the shopper typed in the contact and
 * order steps, kept in sessionStorage so it survives going back and forth and
 * a reload, plus the idempotency key of the current attempt to place the
 * order. Also the price and availability each basket line had when the
 * shopper put it in the basket ("seen"), kept in localStorage with the basket,
 * so the basket page can flag a line whose variant changed price or became
 * unavailable since — the startup refresh updates variantData, the seen
 * values stay until the shopper acknowledges the change. And the order just
 * placed, as the placing call answered it, for the thank-you page (in memory
 * only: a reload or a link asks the API).
 */
import { create } from 'zustand';
import { BASKET_SEEN_KEY, CHECKOUT_DRAFT_KEY, seenLine, type SeenLine } from '../rules/basket-rules.ts';
import { useBasketStore } from './basket-store.ts';
import { getLocalStorage } from './browser-storage.ts';
import { emptyContact } from '../rules/checkout-rules.ts';
import type { BasketLine, CheckoutContact, OrderDetail } from '../contract/index.ts';
import { randomString } from '../rules/random-string.ts';

export type CheckoutDraft = {
  contact: CheckoutContact;
  /** The shopper ticked "nakupujem na firmu". */
  companyPurchase: boolean;
  /** The shopper ticked "doručiť na inú adresu". */
  differentDelivery: boolean;
  shippingCode: string | null;
  /** The pickup point chosen for shipping "pickup-point". */
  pickupPointCode: string | null;
  paymentCode: string | null;
  note: string;
  termsAccepted: boolean;
  /** One per attempt to place the order; a new one after success or a refused attempt. */
  idempotencyKey: string;
};

export type CheckoutStore = CheckoutDraft & {
  seen: Record<string, SeenLine>;
  /** The order this tab has just placed, as the placing call answered it; null once shown or when none. */
  placedOrder: OrderDetail | null;
  update: (partial: Partial<Omit<CheckoutDraft, 'idempotencyKey'>>) => void;
  setContact: (contact: CheckoutContact) => void;
  /** A new idempotency key: the next placing is a new attempt. */
  newAttempt: () => void;
  /** After a placed order: an empty draft (the contact stays for the next order), and the order kept for the thank-you page. */
  finish: (placed: OrderDetail) => void;
  /** The thank-you page has shown the placed order: a later visit asks the API for it. */
  forgetPlacedOrder: () => void;
  /** The shopper accepted a line's current price and availability. */
  acknowledge: (v_id: number) => void;
};

function sessionStore(): Storage | null {
  try {
    return typeof globalThis.sessionStorage === 'undefined' ? null : globalThis.sessionStorage;
  } catch {
    return null;
  }
}

function freshDraft(contact: CheckoutContact = emptyContact()): CheckoutDraft {
  return {
    contact,
    companyPurchase: contact.company !== null,
    differentDelivery: contact.delivery !== null,
    shippingCode: null,
    pickupPointCode: null,
    paymentCode: null,
    note: '',
    termsAccepted: false,
    idempotencyKey: randomString(32),
  };
}

function readDraft(): CheckoutDraft {
  try {
    const raw = sessionStore()?.getItem(CHECKOUT_DRAFT_KEY);
    if (raw) {
      const parsed = JSON.parse(raw) as Partial<CheckoutDraft>;
      if (parsed && typeof parsed === 'object' && parsed.contact && typeof parsed.idempotencyKey === 'string') {
        return { ...freshDraft(), ...parsed, contact: { ...emptyContact(), ...parsed.contact } };
      }
    }
  } catch {
    // unreadable: start over
  }
  return freshDraft();
}

function readSeen(): Record<string, SeenLine> {
  try {
    const raw = getLocalStorage()?.getItem(BASKET_SEEN_KEY);
    const parsed: unknown = raw ? JSON.parse(raw) : null;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, SeenLine>;
  } catch {
    // unreadable: nothing seen
  }
  return {};
}

export const useCheckoutStore = create<CheckoutStore>()((set, get) => {
  const persistDraft = () => {
    const { contact, companyPurchase, differentDelivery, shippingCode, pickupPointCode, paymentCode, note, termsAccepted, idempotencyKey } =
      get();
    const draft: CheckoutDraft = {
      contact,
      companyPurchase,
      differentDelivery,
      shippingCode,
      pickupPointCode,
      paymentCode,
      note,
      termsAccepted,
      idempotencyKey,
    };
    try {
      sessionStore()?.setItem(CHECKOUT_DRAFT_KEY, JSON.stringify(draft));
    } catch {
      // storage refused: the draft lives in memory only
    }
  };
  const persistSeen = (seen: Record<string, SeenLine>) => {
    set({ seen });
    try {
      getLocalStorage()?.setItem(BASKET_SEEN_KEY, JSON.stringify(seen));
    } catch {
      // storage refused
    }
  };

  return {
    ...readDraft(),
    seen: readSeen(),
    placedOrder: null,
    update: (partial) => {
      set(partial);
      persistDraft();
    },
    setContact: (contact) => {
      set({ contact });
      persistDraft();
    },
    newAttempt: () => {
      set({ idempotencyKey: randomString(32) });
      persistDraft();
    },
    finish: (placed) => {
      set({
        ...freshDraft(get().contact),
        companyPurchase: get().companyPurchase,
        differentDelivery: get().differentDelivery,
        placedOrder: placed,
      });
      persistDraft();
    },
    forgetPlacedOrder: () => set({ placedOrder: null }),
    acknowledge: (v_id) => {
      const line = useBasketStore.getState().lines.find((l) => l.v_id === v_id);
      if (!line) return;
      persistSeen({ ...get().seen, [String(v_id)]: seenLine(line) });
    },
  };
});

/** New lines are recorded as seen; lines gone from the basket are forgotten. */
function syncSeen(lines: readonly BasketLine[]): void {
  const seen = useCheckoutStore.getState().seen;
  const next: Record<string, SeenLine> = {};
  let changed = false;
  for (const line of lines) {
    const key = String(line.v_id);
    const known = seen[key];
    if (known) next[key] = known;
    else {
      next[key] = seenLine(line);
      changed = true;
    }
  }
  if (Object.keys(seen).length !== Object.keys(next).length) changed = true;
  if (!changed) return;
  useCheckoutStore.setState({ seen: next });
  try {
    getLocalStorage()?.setItem(BASKET_SEEN_KEY, JSON.stringify(next));
  } catch {
    // storage refused
  }
}

syncSeen(useBasketStore.getState().lines);
useBasketStore.subscribe((state) => syncSeen(state.lines));
