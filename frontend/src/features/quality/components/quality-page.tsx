import { useState } from 'react';
import { ApiResultView } from '@/components/ui/api-result-view';
import { Button } from '@/components/ui/button';
import { CardSection } from '@/components/ui/card-section';
import { DataTable, type Column } from '@/components/ui/data-table';
import { SelectField } from '@/components/ui/form-field';
import { PageHeader } from '@/components/ui/page-header';
import { useApiResult } from '@/hooks/use-api-result';
import { formatDate } from '@/lib/format';
import { useAppStore } from '@/stores/app-store';
import { canManageQuality } from '../access';
import { fetchLots, type Lot, type LotStatus } from '../api/quality-api';
import { LotPanel } from './lot-panel';
import { NonconformanceBoard } from './nonconformance-board';
import { LOT_STATUSES, StatusBadge } from './status-badge';
import './quality.css';

const LOT_COLUMNS: readonly Column<Lot>[] = [
  { header: 'Lot', cell: (l) => <span className="mono">{l.number}</span> },
  { header: 'Product', cell: (l) => l.product_name },
  {
    header: 'Expires',
    cell: (l) =>
      l.expires_on ? (
        <>
          {formatDate(l.expires_on)}
          {l.expired ? <span className="badge badge--danger">Expired</span> : null}
        </>
      ) : (
        '—'
      ),
  },
  { header: 'Status', cell: (l) => <StatusBadge status={l.status} /> },
];

/** The lots in one status (a table of its own, loaded again when the status changes). */
function LotsTable({
  status,
  selected,
  onOpen,
}: {
  status: LotStatus | '';
  selected: string | null;
  onOpen: (lot: Lot) => void;
}) {
  const { result, reload } = useApiResult(() => fetchLots(status));
  return (
    <ApiResultView result={result} onRetry={reload} loadingLabel="Loading the lots">
      {({ lots, more }) => (
        <>
          <DataTable
            label="Lots"
            columns={LOT_COLUMNS}
            rows={lots}
            rowKey={(l) => l.id}
            empty={status ? `No lot is ${status}.` : 'No lots yet.'}
            actions={(l) => (
              <Button
                variant={selected === l.id ? 'primary' : 'secondary'}
                aria-pressed={selected === l.id}
                onClick={() => onOpen(l)}
              >
                Open lot {l.number}
              </Button>
            )}
          />
          {more ? <p className="muted">The newest {lots.length} lots are listed.</p> : null}
        </>
      )}
    </ApiResultView>
  );
}

/**
 * `/QAandCompliance`: lots by status, one lot's inspections, status and
 * certificate of analysis, a new inspection, and the nonconformance board.
 * Workers (and client employees) inspect and read; admins and managers also
 * change a lot's status and run the nonconformances.
 */
export function QualityPage() {
  const role = useAppStore((s) => s.auth.user?.role);
  const canManage = canManageQuality(role);
  const [status, setStatus] = useState<LotStatus | ''>('');
  const [lot, setLot] = useState<Lot | null>(null);
  const [lotsLoad, setLotsLoad] = useState(0);

  return (
    <>
      <PageHeader
        title="QA and compliance"
        description="Inspect lots, hold or release them, work nonconformances through to a corrective action, and issue certificates of analysis."
      />
      <CardSection title="Lots by status">
        <SelectField
          label="Status"
          value={status}
          onChange={(e) => setStatus(e.target.value as LotStatus | '')}
          options={[
            { value: '', label: 'Every status' },
            ...LOT_STATUSES.map((s) => ({ value: s.value, label: s.label })),
          ]}
        />
        <LotsTable
          key={`${status}-${lotsLoad}`}
          status={status}
          selected={lot?.id ?? null}
          onOpen={setLot}
        />
      </CardSection>
      {lot ? (
        <LotPanel
          key={lot.id}
          lot={lot}
          canManage={canManage}
          onLotChanged={() => setLotsLoad((n) => n + 1)}
        />
      ) : null}
      <NonconformanceBoard canManage={canManage} lot={lot} />
    </>
  );
}
