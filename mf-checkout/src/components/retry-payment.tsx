import { useState } from 'react';
import { api } from '@shop/shared-kernel';

/** Starts a new card payment for the order and sends the shopper to the gateway. */
export function RetryPayment({ token, label = 'Zaplatiť kartou znova' }: { token: string; label?: string }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const retry = async () => {
    setBusy(true);
    setError(null);
    try {
      const { data } = await api.retryPayment(token);
      if (data.redirectUrl) window.location.assign(data.redirectUrl);
      else setBusy(false);
    } catch (cause) {
      setError(cause instanceof Error ? cause.message : 'Platbu sa nepodarilo spustiť.');
      setBusy(false);
    }
  };
  return (
    <div>
      <button type="button" className="button button--primary" disabled={busy} onClick={() => void retry()}>{label}</button>
      {error && <p className="chk-message chk-message--error" role="alert">{error}</p>}
    </div>
  );
}
