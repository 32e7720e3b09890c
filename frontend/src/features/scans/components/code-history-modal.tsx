import { ApiResultView } from '@/components/ui/api-result-view';
import { DataTable, type Column } from '@/components/ui/data-table';
import { Modal } from '@/components/ui/modal';
import { useApiResult } from '@/hooks/use-api-result';
import { formatDateTime, formatNumber } from '@/lib/format';
import { fetchCodeHistory } from '../api/code-history-api';
import { placeSource, scanKind, verdictLabel, type CodeScan } from '../code-history';

const COLUMNS: readonly Column<CodeScan>[] = [
  {
    header: 'Time',
    cell: (s) => <time dateTime={s.scannedAt}>{formatDateTime(s.scannedAt)}</time>,
  },
  {
    header: 'Place',
    cell: (s) => (
      <>
        {s.place}
        {placeSource(s.locationSource) ? (
          <>
            <br />
            <span className="muted">{placeSource(s.locationSource)}</span>
          </>
        ) : null}
      </>
    ),
  },
  { header: 'First or repeat', cell: (s) => scanKind(s) },
  { header: 'Consumer', cell: (s) => s.consumer },
  {
    header: 'Verdict',
    cell: (s) => (
      <span className={`badge ${s.verdict === 'genuine' ? 'badge--success' : 'badge--warning'}`}>
        {verdictLabel(s.verdict)}
      </span>
    ),
  },
];

function History({ id }: { id: string }) {
  const { result, reload } = useApiResult(() => fetchCodeHistory(id));
  return (
    <ApiResultView result={result} onRetry={reload} loadingLabel="Loading the scan history…">
      {(history) => (
        <>
          <p>
            {history.productName ? <>{history.productName}: </> : null}
            {formatNumber(history.scanCount)} scans by {formatNumber(history.consumers)}{' '}
            {history.consumers === 1 ? 'consumer' : 'consumers'}.{' '}
            {history.suspicious ? (
              <span className="badge badge--warning">Suspicious</span>
            ) : (
              <span className="badge badge--success">Genuine</span>
            )}
          </p>
          <p className="muted">
            Consumers are anonymous: numbered in the order they first scanned this code.
            {history.scans.length < history.scanCount ? ' The newest 200 scans are shown.' : ''}
          </p>
          {/* The scroll box, focusable so that a keyboard can scroll a wide table. */}
          <div className="code-history" tabIndex={0} role="region" aria-label="Scans, newest first">
            <DataTable
              label={`Scans of code ${history.id}`}
              columns={COLUMNS}
              rows={history.scans}
              rowKey={(s) => s.key}
              empty="No scans."
            />
          </div>
        </>
      )}
    </ApiResultView>
  );
}

/** A code's scans: time, place, first or repeat, consumer (anonymous), verdict. */
export function CodeHistoryModal({ id, onClose }: { id: string | null; onClose: () => void }) {
  return (
    <Modal open={id !== null} title={`Scans of code ${id ?? ''}`} onClose={onClose}>
      {id !== null ? <History key={id} id={id} /> : null}
    </Modal>
  );
}
