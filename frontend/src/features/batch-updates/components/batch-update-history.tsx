import { useEffect, useRef, useState } from 'react';
import { ApiResultView } from '@/components/ui/api-result-view';
import { DataTable, type Column } from '@/components/ui/data-table';
import { useApiResult } from '@/hooks/use-api-result';
import { formatDateTime, formatNumber } from '@/lib/format';
import { listBatchUpdates, resultUrl, type BatchUpdate } from '../api/batch-updates-api';
import { isRunning, sourceLabel, STATUS_BADGES, STATUS_LABELS } from '../batch-updates';

/** How often the history asks again while one of its updates runs. */
const HISTORY_POLL_MS = 3000;

const COLUMNS: readonly Column<BatchUpdate>[] = [
  { header: 'When', cell: (u) => formatDateTime(u.created_at) },
  { header: 'Who', cell: (u) => u.created_by_name },
  { header: 'File', cell: (u) => sourceLabel(u) },
  { header: 'Kind', cell: (u) => (u.dry_run ? 'Check' : 'Apply') },
  {
    header: 'Rows',
    cell: (u) =>
      u.status === 'applied'
        ? `${formatNumber(u.rows_applied)} of ${formatNumber(u.rows_read)} applied`
        : formatNumber(u.rows_read),
    className: 'num',
  },
  {
    header: 'Outcome',
    cell: (u) => (
      <span className={STATUS_BADGES[u.status]} title={u.failure}>
        {STATUS_LABELS[u.status]}
      </span>
    ),
  },
  { header: 'Problems', cell: (u) => formatNumber(u.error_count), className: 'num' },
];

/**
 * The organisation's batch updates, newest first: who, when, which file,
 * check or apply, rows, outcome and problems, with each finished update's
 * result file.
 */
export function BatchUpdateHistory({ version = 0 }: { version?: number }) {
  const { result, reload, update } = useApiResult(listBatchUpdates);
  const first = useRef(version);

  const active = result?.ok === true && result.data.updates.some((u) => isRunning(u.status));
  const [tick, setTick] = useState(0);

  // Asked for again (quietly) when `version` changes, and every few seconds
  // while an update of the list is still running (one started in another tab,
  // or before the page was reloaded).
  useEffect(() => {
    if (version === first.current && tick === 0) return;
    let gone = false;
    void listBatchUpdates().then((next) => {
      if (!gone && next.ok) update(() => next.data);
    });
    return () => {
      gone = true;
    };
    // `update` is a new function each render; the version and tick alone ask again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [version, tick]);

  useEffect(() => {
    if (!active) return;
    const timer = setTimeout(() => setTick((t) => t + 1), HISTORY_POLL_MS);
    return () => clearTimeout(timer);
  }, [active, tick]);

  return (
    <ApiResultView result={result} onRetry={reload} loadingLabel="Loading the history">
      {({ updates }) => (
        <DataTable
          label="Batch update history"
          columns={COLUMNS}
          rows={updates}
          rowKey={(u) => u.id}
          empty="No batch updates yet."
          actions={(u) =>
            isRunning(u.status) ? null : (
              <a
                className="btn btn--secondary"
                href={resultUrl(u.id)}
                download
                aria-label={`Result of ${sourceLabel(u)}, ${formatDateTime(u.created_at)}`}
              >
                Result
              </a>
            )
          }
        />
      )}
    </ApiResultView>
  );
}
