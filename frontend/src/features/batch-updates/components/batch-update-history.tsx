import { useEffect, useEffectEvent, useRef } from 'react';
import { ApiResultView } from '@/components/ui/api-result-view';
import { DataTable, type Column } from '@/components/ui/data-table';
import { doneWhen, usePolledResult } from '@/hooks/use-polled-result';
import { formatDateTime, formatNumber } from '@/lib/format';
import {
  listBatchUpdates,
  resultUrl,
  type BatchUpdate,
  type BatchUpdateList,
} from '../api/batch-updates-api';
import { isRunning, sourceLabel, STATUS_BADGES, STATUS_LABELS } from '../batch-updates';

/** How often the history asks again while one of its updates runs (at first). */
const HISTORY_POLL_MS = 3000;

const noneRunning = doneWhen(
  (list: BatchUpdateList) => !list.updates.some((u) => isRunning(u.status)),
);

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
 * result file; the newest `limit` of them when given; with `onOpen`, a
 * "Details" button a finished update.
 */
export function BatchUpdateHistory({
  version = 0,
  limit,
  onOpen,
}: {
  version?: number;
  limit?: number;
  onOpen?: (update: BatchUpdate) => void;
}) {
  // Asked for again every few seconds while an update of the list is still
  // running (one started in another tab, or before the page was reloaded; a
  // failed refresh keeps the list), and at once (quietly) when `version` changes.
  const { result, reload, refresh } = usePolledResult('batch-updates', listBatchUpdates, {
    done: noneRunning,
    interval: HISTORY_POLL_MS,
  });
  const askAgain = useEffectEvent(refresh);
  const seen = useRef(version);
  useEffect(() => {
    if (version === seen.current) return;
    seen.current = version;
    askAgain();
  }, [version]);

  return (
    <ApiResultView result={result} onRetry={reload} loadingLabel="Loading the history">
      {({ updates }) => (
        <DataTable
          label="Batch update history"
          columns={COLUMNS}
          rows={limit === undefined ? updates : updates.slice(0, limit)}
          rowKey={(u) => u.id}
          empty="No batch updates yet."
          actions={(u) =>
            isRunning(u.status) ? null : (
              <>
                {onOpen ? (
                  <button
                    type="button"
                    className="btn btn--secondary"
                    aria-label={`Details of ${sourceLabel(u)}, ${formatDateTime(u.created_at)}`}
                    onClick={() => onOpen(u)}
                  >
                    Details
                  </button>
                ) : null}
                <a
                  className="btn btn--secondary"
                  href={resultUrl(u.id)}
                  download
                  aria-label={`Result of ${sourceLabel(u)}, ${formatDateTime(u.created_at)}`}
                >
                  Result
                </a>
              </>
            )
          }
        />
      )}
    </ApiResultView>
  );
}
