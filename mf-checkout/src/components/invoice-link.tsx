import { useState } from 'react';
import { useAuthStore } from '@shop/shared-kernel';

/**
 * Downloads the invoice PDF: a signed-in shopper's own order with the Bearer token, a guest's by
 * the order token in the URL (the API refuses anyone else).
 */
export function InvoiceLink({ token }: { token: string }) {
  const auth = useAuthStore((state) => state.auth);
  const [error, setError] = useState<string | null>(null);
  const open = async () => {
    setError(null);
    const headers: Record<string, string> = {};
    if ('token' in auth && auth.token) headers.Authorization = `Bearer ${auth.token}`;
    try {
      const res = await fetch(`/api/orders/${encodeURIComponent(token)}/invoice`, { headers });
      if (!res.ok) throw new Error(res.status === 401 || res.status === 403 ? 'Faktúru si môže stiahnuť iba zákazník, ktorý objednávku vytvoril (prihláste sa).' : 'Faktúru sa nepodarilo načítať.');
      const url = URL.createObjectURL(await res.blob());
      window.open(url, '_blank', 'noopener');
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    } catch (cause) {
      setError(cause instanceof Error ? cause.message : 'Faktúru sa nepodarilo načítať.');
    }
  };
  return (
    <>
      <button type="button" className="chk-link-button" onClick={() => void open()}>Faktúra (PDF)</button>
      {error && <p className="chk-message chk-message--error" role="alert">{error}</p>}
    </>
  );
}
