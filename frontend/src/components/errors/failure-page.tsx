import { DangerTriangleIcon } from '@solar-icons/react/linear/danger-triangle';
import type { ReactNode } from 'react';
import { StatusPage } from './status-page';

/** A whole-screen failure, outside the app's layout: what went wrong and what to do. */
export function FailurePage({
  title,
  actions,
  children,
}: {
  title: string;
  actions: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="blank">
      <StatusPage icon={<DangerTriangleIcon />} title={title} actions={actions}>
        {children}
      </StatusPage>
    </div>
  );
}
