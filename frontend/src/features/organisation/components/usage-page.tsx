import { ApiResultView } from '@/components/ui/api-result-view';
import { DataTable, type Column } from '@/components/ui/data-table';
import { PageHeader } from '@/components/ui/page-header';
import { formatNumber } from '@/lib/format';
import { useOrganisation, type UsageRow } from '../api/organisation-api';
import { UsageMeter } from './usage-meter';

/** The contract types `limit` as a number; an organisation without one may still send null. */
const limited = (row: UsageRow) => typeof row.limit === 'number';

const USAGE_COLUMNS: readonly Column<UsageRow>[] = [
  { header: 'Resource', cell: (row) => row.label },
  { header: 'Used', className: 'num', cell: (row) => formatNumber(row.used) },
  {
    header: 'Limit',
    className: 'num',
    cell: (row) => (limited(row) ? formatNumber(row.limit) : 'No limit'),
  },
  {
    header: 'Left',
    className: 'num',
    cell: (row) => (limited(row) ? formatNumber(Math.max(0, row.limit - row.used)) : '—'),
  },
  {
    header: 'Share used',
    hideHeader: true,
    className: 'share',
    cell: (row) => <UsageMeter used={row.used} limit={row.limit} label={`${row.label} used`} />,
  },
];

/** `/ui/table`: the organisation's usage against its limits, as a table. */
export function UsagePage() {
  const { result, reload } = useOrganisation();
  return (
    <>
      <PageHeader
        title="Usage"
        description={
          result?.ok
            ? `What ${result.data.name} uses of its plan.`
            : 'What your organisation uses of its plan.'
        }
      />
      <ApiResultView result={result} onRetry={reload}>
        {(organisation) => (
          <DataTable
            label="Usage"
            columns={USAGE_COLUMNS}
            rows={organisation.usage}
            rowKey={(row) => row.key}
            empty="Nothing is metered for your organisation yet."
          />
        )}
      </ApiResultView>
    </>
  );
}
