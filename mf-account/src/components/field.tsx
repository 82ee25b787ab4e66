import { TextField, type TextFieldProps } from '@shop/shared-kernel/react';

/** The kernel's text field with this area's styles. */
export function Field(props: Omit<TextFieldProps, 'classPrefix'>) {
  return <TextField classPrefix="acc" {...props} />;
}

/** The Slovak message of a failed call. */
export function errorMessage(caught: unknown, fallback: string): string {
  const error = caught as { status?: number; message?: unknown } | null;
  if (error?.status === 429) return 'Príliš veľa pokusov. Skúste to, prosím, o niekoľko minút.';
  if (
    error &&
    typeof error.message === 'string' &&
    error.message &&
    typeof error.status === 'number' &&
    error.status > 0 &&
    error.status < 500
  )
    return error.message;
  return fallback;
}
