import { usePaymentRetry } from '@shop/shared-kernel';

const describe = (caught: unknown) => (caught instanceof Error ? caught.message : 'Platbu sa nepodarilo spustiť.');

/** Starts a new card payment for the order and sends the shopper to the gateway. */
export function RetryPayment({ token, label = 'Zaplatiť kartou znova' }: { token: string; label?: string }) {
  const { busy, error, start } = usePaymentRetry(token, describe);
  return (
    <div>
      <button type="button" className="button button--primary" disabled={busy} onClick={() => void start()}>
        {label}
      </button>
      {error && (
        <p className="chk-message chk-message--error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
