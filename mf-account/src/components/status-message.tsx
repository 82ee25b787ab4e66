/** A result line after an action: polite for success, an alert for an error. */
export function StatusMessage({ ok, error }: { ok?: string | null; error?: string | null }) {
  return (
    <>
      {ok && (
        <p className="acc-ok" role="status">
          {ok}
        </p>
      )}
      {error && (
        <p className="acc-error" role="alert">
          {error}
        </p>
      )}
    </>
  );
}
