import { ErrorAlert } from '@/components/ui/alert';
import { PageHeader } from '@/components/ui/page-header';
import { LoadingBlock } from '@/components/ui/spinner';
import { formatNumber } from '@/lib/format';
import { useOrganisation } from '../api/organisation-api';
import { UsageMeter } from './usage-meter';

/** `/ui/table`: the organisation's usage against its limits, as a table. */
export function UsagePage() {
  const org = useOrganisation();
  return (
    <>
      <PageHeader
        title="Usage"
        description={
          org.status === 'succeeded'
            ? `What ${org.organisation.name} uses of its plan.`
            : 'What your organisation uses of its plan.'
        }
      />
      {org.status === 'loading' ? <LoadingBlock /> : null}
      {org.status === 'failed' ? <ErrorAlert onRetry={org.reload}>{org.message}</ErrorAlert> : null}
      {org.status === 'succeeded' ? (
        <div className="table-wrap">
          <table className="table" aria-label="Usage">
            <thead>
              <tr>
                <th scope="col">Resource</th>
                <th scope="col" className="num">
                  Used
                </th>
                <th scope="col" className="num">
                  Limit
                </th>
                <th scope="col" className="num hide-sm">
                  Left
                </th>
                <th scope="col" className="hide-sm">
                  <span className="visually-hidden">Share used</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {org.organisation.usage.length === 0 ? (
                <tr>
                  <td colSpan={5} className="muted">
                    Nothing is metered for your organisation yet.
                  </td>
                </tr>
              ) : null}
              {org.organisation.usage.map((row) => {
                const limited = typeof row.limit === 'number';
                return (
                  <tr key={row.key}>
                    <td>{row.label}</td>
                    <td className="num">{formatNumber(row.used)}</td>
                    <td className="num">
                      {limited ? formatNumber(row.limit as number) : 'No limit'}
                    </td>
                    <td className="num hide-sm">
                      {limited ? formatNumber(Math.max(0, (row.limit as number) - row.used)) : '—'}
                    </td>
                    <td className="hide-sm" style={{ width: '22%' }}>
                      <UsageMeter used={row.used} limit={row.limit} label={`${row.label} used`} />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      ) : null}
    </>
  );
}
