import { useState } from 'react';
import { api } from '../singleton/api-client.ts';

const NOT_YOURS = 'Faktúru si môže stiahnuť iba zákazník, ktorý objednávku vytvoril (prihláste sa).';
const FAILED = 'Faktúru sa nepodarilo stiahnuť.';

/** The Slovak message of a failed invoice download. */
export function invoiceErrorMessage(caught: unknown): string {
  const error = caught as { status?: unknown; message?: unknown } | null;
  const status = typeof error?.status === 'number' ? error.status : 0;
  if (status === 401 || status === 403) return NOT_YOURS;
  if (status > 0 && status < 500 && status !== 429 && typeof error?.message === 'string' && error.message) return error.message;
  return FAILED;
}

/**
 * The one way to get an order's invoice PDF (the thank-you page and the account): through the
 * API client (a guest's order by its token, a signed-in shopper's own with the session; a 401
 * signs out), saved as faktura-<number>.pdf. The area draws the button and the error.
 */
export function useInvoiceDownload(order: { token: string; number: string }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const download = async () => {
    setBusy(true);
    setError(null);
    try {
      const url = URL.createObjectURL(await api.download('GET /api/orders/:token/invoice', { params: { token: order.token } }));
      const link = document.createElement('a');
      link.href = url;
      link.download = `faktura-${order.number}.pdf`;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    } catch (caught) {
      setError(invoiceErrorMessage(caught));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, download };
}
