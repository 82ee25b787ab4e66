import { useState } from 'react';
import { api } from '../singleton/api-client.ts';

/**
 * Pay again for an unpaid card order: starts a new payment and sends the
 * shopper to the gateway. `describe` turns a failure into the area's message.
 */
export function usePaymentRetry(token: string, describe: (caught: unknown) => string) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const start = async () => {
    setBusy(true);
    setError(null);
    try {
      const { data } = await api.call('POST /api/orders/:token/pay', { params: { token } });
      if (data.redirectUrl) window.location.assign(data.redirectUrl);
      else setBusy(false);
    } catch (caught) {
      setError(describe(caught));
      setBusy(false);
    }
  };
  return { busy, error, start };
}
