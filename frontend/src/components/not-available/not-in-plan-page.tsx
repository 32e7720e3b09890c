import { LockKeyholeIcon } from '@solar-icons/react/linear/lock-keyhole';
import { Link } from 'react-router';
import { PageHeader } from '@/components/ui/page-header';
import { paths } from '@/config/paths';
import { moduleName, requiredModules, type ModuleRequirement } from '@/lib/access/modules';
import { useAppStore } from '@/stores/app-store';

/**
 * The page of a module the organisation's plan does not include: it says so
 * and what to do, instead of the module's screens (whose calls the server
 * would refuse with `module_disabled`).
 */
export function NotInPlanPage({ module }: { module: ModuleRequirement }) {
  const catalogue = useAppStore((s) => s.auth.moduleCatalogue);
  const names = requiredModules(module).map((key) => moduleName(key, catalogue));
  const title = typeof module === 'string' ? names.join('') : 'ERP';
  return (
    <div className="not-available" data-testid="not-in-plan">
      <div className="not-available__icon" aria-hidden="true">
        <LockKeyholeIcon />
      </div>
      <PageHeader title={title} />
      <div className="card">
        <h2 className="card__title">This module is not part of your plan</h2>
        <p>
          {typeof module === 'string'
            ? `${title} is not part of your organisation’s plan, so its pages and data are not available to you.`
            : `None of the ERP modules (${names.join(', ')}) is part of your organisation’s plan.`}
        </p>
        <p className="muted">
          To use it, ask your platform administrator to add it to your organisation’s plan. Your
          organisation’s administrators see which modules it has on the Configuration page.
        </p>
        <div className="form-actions form-actions--start">
          <Link className="btn btn--secondary" to={paths.home.href()}>
            Back to the dashboard
          </Link>
        </div>
      </div>
    </div>
  );
}
