import { useInvoiceDownload } from '@shop/shared-kernel';

/** The invoice PDF of the order, by the kernel's one way to download it, in this area's look. */
export function InvoiceLink({ order }: { order: { token: string; number: string } }) {
  const { busy, error, download } = useInvoiceDownload(order);
  return (
    <>
      <button type="button" className="chk-link-button" disabled={busy} onClick={() => void download()}>
        Faktúra (PDF)
      </button>
      {error && (
        <p className="chk-message chk-message--error" role="alert">
          {error}
        </p>
      )}
    </>
  );
}
