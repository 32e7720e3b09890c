import { DangerTriangleIcon } from '@solar-icons/react/linear/danger-triangle';
import type { ReactNode } from 'react';

export function ErrorAlert({ children }: { children: ReactNode }) {
  return (
    <div className="alert alert--error" role="alert">
      <DangerTriangleIcon />
      <div>{children}</div>
    </div>
  );
}
