import type { ReactNode } from 'react';

type LoadFailedProps = {
  children: ReactNode;
  /** Loads again (a resource's `reload`). */
  onRetry: () => void;
  /** The area's class of the message (e.g. its empty-state box). */
  className?: string;
  /** One line inside a form (a paragraph with a link-like button of `buttonClassName`) instead of a block. */
  inline?: boolean;
  buttonClassName?: string;
};

/** What a page shows when its data could not be loaded: the area's message and „Skúsiť znova". */
export function LoadFailed({ children, onRetry, className, inline = false, buttonClassName = 'button' }: LoadFailedProps) {
  const retry = (
    <button type="button" className={buttonClassName} onClick={onRetry}>
      Skúsiť znova
    </button>
  );
  if (inline) {
    return (
      <p className={className} role="alert">
        {children} {retry}
      </p>
    );
  }
  return (
    <div className={className} role="alert">
      <p>{children}</p>
      {retry}
    </div>
  );
}
