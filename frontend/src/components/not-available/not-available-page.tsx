import { HourglassLineIcon } from '@solar-icons/react/linear/hourglass-line';
import { Link } from 'react-router';
import { PageHeader } from '@/components/ui/page-header';
import { plannedModules, type PlannedModuleKey } from '@/config/modules';
import { paths } from '@/config/paths';

/**
 * The one page for modules that are not built yet. It says so plainly and
 * what the module will do; it never shows sample or made-up data.
 */
export function NotAvailablePage({ module }: { module: PlannedModuleKey }) {
  const { title, summary } = plannedModules[module];
  return (
    <div className="not-available" data-testid="not-available">
      <div className="not-available__icon" aria-hidden="true">
        <HourglassLineIcon />
      </div>
      <PageHeader title={title} />
      <div className="card">
        <h2 className="card__title">Not available yet</h2>
        <p>
          This module is not available yet. It is part of a later release of brandops, and nothing
          here is live data.
        </p>
        <p className="muted">When it arrives: {summary}</p>
        <div className="form-actions form-actions--start">
          <Link className="btn btn--secondary" to={paths.home.href()}>
            Back to the dashboard
          </Link>
        </div>
      </div>
    </div>
  );
}
