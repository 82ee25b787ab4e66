import type { InputHTMLAttributes } from 'react';

type FieldProps = {
  id: string;
  label: string;
  value: string;
  error?: string | undefined;
  onChange: (value: string) => void;
  hint?: string;
} & Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'value' | 'onChange'>;

/** A labelled text field with its Slovak error message under it. */
export function Field({ id, label, value, error, onChange, hint, ...rest }: FieldProps) {
  const describedBy = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`acc-field${error ? ' acc-field--error' : ''}`}>
      <label htmlFor={id}>{label}</label>
      <input id={id} value={value} aria-invalid={error ? true : undefined} aria-describedby={describedBy}
        onChange={(event) => onChange(event.target.value)} {...rest} />
      {hint && <small id={`${id}-hint`}>{hint}</small>}
      {error && <p id={`${id}-error`} className="acc-error">{error}</p>}
    </div>
  );
}

/** The Slovak message of a failed call. */
export function errorMessage(caught: unknown, fallback: string): string {
  const error = caught as { status?: number; message?: unknown } | null;
  if (error?.status === 429) return 'Príliš veľa pokusov. Skúste to, prosím, o niekoľko minút.';
  if (error && typeof error.message === 'string' && error.message && typeof error.status === 'number' && error.status > 0 && error.status < 500) return error.message;
  return fallback;
}
