import { DangerTriangleIcon } from '@solar-icons/react/linear/danger-triangle';
import type { ReactNode } from 'react';

/** An error message; with `onRetry`, followed by a "Try again" button. */
export function ErrorAlert({ children, onRetry }: { children: ReactNode; onRetry?: () => void }) {
  return (
    <div className="alert alert--error" role="alert">
      <DangerTriangleIcon />
      <div>
        {children}
        {onRetry ? (
          <>
            {' '}
            <button type="button" className="btn btn--secondary" onClick={onRetry}>
              Try again
            </button>
          </>
        ) : null}
      </div>
    </div>
  );
}
