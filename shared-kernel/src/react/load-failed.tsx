import type { ReactNode } from 'react';

/**
 * What a page shows when its data could not be loaded: the area's message and „Skúsiť znova",
 * which loads it again (a resource's `reload`). `className` is the area's (e.g. its empty-state box).
 */
export function LoadFailed({ children, onRetry, className }: { children: ReactNode; onRetry: () => void; className?: string }) {
  return (
    <div className={className} role="alert">
      <p>{children}</p>
      <button type="button" className="button" onClick={onRetry}>
        Skúsiť znova
      </button>
    </div>
  );
}
