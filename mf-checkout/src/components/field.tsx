import { TextField, type TextFieldProps } from '@shop/shared-kernel/react';

/** The kernel's text field with this area's styles. */
export function Field(props: Omit<TextFieldProps, 'classPrefix'>) {
  return <TextField classPrefix="chk" {...props} />;
}
