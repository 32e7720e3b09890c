import type { ReactNode } from 'react';
import { Outlet } from 'react-router';
import { NotInPlanPage } from '@/components/not-available/not-in-plan-page';
import { useHasModule } from '@/hooks/use-access';
import type { ModuleRequirement } from '@/lib/access/modules';

/**
 * The routes of a plan module: their page (or `children`) when the
 * organisation has the module, else the "not part of your plan" page. Access
 * to the path itself is the access guard's.
 */
export function ModuleGate({
  module,
  children,
}: {
  module: ModuleRequirement;
  children?: ReactNode;
}) {
  const hasModule = useHasModule();
  if (!hasModule(module)) return <NotInPlanPage module={module} />;
  return children ?? <Outlet />;
}
