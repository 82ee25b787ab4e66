import type { InputHTMLAttributes } from 'react';

export type TextFieldProps = {
  id: string;
  label: string;
  value: string;
  error?: string | undefined;
  onChange: (value: string) => void;
  hint?: string;
  /** The area's CSS prefix, e.g. 'chk' gives chk-field, chk-field--error, chk-field__error. */
  classPrefix: string;
} & Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'value' | 'onChange'>;

/** A labelled text field with its hint and its Slovak error message, wired for screen readers. */
export function TextField({ id, label, value, error, onChange, hint, classPrefix, ...rest }: TextFieldProps) {
  const describedBy = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`${classPrefix}-field${error ? ` ${classPrefix}-field--error` : ''}`}>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        onChange={(event) => onChange(event.target.value)}
        {...rest}
      />
      {hint && <small id={`${id}-hint`}>{hint}</small>}
      {error && (
        <p id={`${id}-error`} className={`${classPrefix}-field__error`}>
          {error}
        </p>
      )}
    </div>
  );
}
