/** Test fixtures shared by the kernel's unit tests. */
import type { BasketLine, OrderDetail, VariantData } from '../contract/index.ts';
import type { SignedIn } from '../rules/auth-token.ts';

export function variant(overrides: Partial<VariantData> = {}): VariantData {
  return {
    v_id: 1,
    v_code: 'CEM-25',
    v_name: '25 kg',
    v_sellPrice: 10000,
    v_vat: 23,
    v_sale: 0,
    v_stock: 100,
    v_availability: 'in_stock',
    v_weight: 25000,
    v_unit: 'vrece',
    v_baseAmount: null,
    v_baseUnit: null,
    p_id: 10,
    p_name: 'Cement CEM II 32,5 R',
    p_url: 'cement-cem-ii-32-5-r',
    p_image: 'cement.jpg',
    ...overrides,
  };
}

export function line(v_id: number, amount: number, overrides: Partial<VariantData> = {}): BasketLine {
  return {
    v_id,
    amount,
    variantData: variant({ v_id, ...overrides }),
    isComponent: false,
    isRequired: false,
  };
}

/** A placed order as the API answers it: two sacks of cement by courier, cash on delivery. */
export function orderDetail(overrides: Partial<OrderDetail> = {}): OrderDetail {
  return {
    number: '2026000042',
    token: 'T'.repeat(32),
    createdAt: '2026-06-01T08:00:00.000Z',
    status: 'new',
    paymentStatus: 'on_delivery',
    pickupPoint: null,
    shipping: { code: 'courier', name: 'Kuriér', price: 4_900 },
    payment: { code: 'cod', name: 'Na dobierku', price: 1_000 },
    contact: {
      email: 'jana@example.sk',
      phone: '+421905123456',
      name: 'Jana Nová',
      billing: { street: 'Dlhá 1', city: 'Nitra', zip: '94901' },
      company: null,
      delivery: null,
    },
    note: '',
    lines: [
      {
        v_id: 1,
        v_code: 'CEM-25',
        p_name: 'Cement CEM II 32,5 R',
        v_name: '25 kg',
        v_unit: 'vrece',
        amount: 2,
        unitPrice: 12_300,
        vat: 23,
        lineTotal: 24_600,
      },
    ],
    itemsTotal: 24_600,
    couponCode: null,
    discount: 0,
    total: 30_500,
    amountDue: 30_500,
    vat: [{ rate: 23, base: 24_800, vat: 5_700, total: 30_500 }],
    transfer: null,
    canRetryPayment: false,
    ...overrides,
  };
}

function base64Url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** An unsigned JWT-shaped token with the given payload. */
export function tokenWith(payload: Record<string, unknown>): string {
  return `${base64Url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${base64Url(JSON.stringify(payload))}.c2lnbmF0dXJl`;
}

/** A token for a user id. */
export function tokenFor(userId: number): string {
  return tokenWith({ user_id: userId, name: 'Ján Šťastný' });
}

/** The auth store's state of a signed-in shopper (what the page keeps: no token). */
export function signedIn(userId: number, expiresAt = Date.now() + 7 * 24 * 3600 * 1000): SignedIn {
  return { auth: 1, user: { id: userId, name: 'Ján Šťastný', email: `zakaznik${userId}@example.sk` }, expiresAt };
}
