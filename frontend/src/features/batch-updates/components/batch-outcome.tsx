import { ErrorAlert } from '@/components/ui/alert';
import { DataTable, type Column } from '@/components/ui/data-table';
import { formatNumber } from '@/lib/format';
import {
  resultUrl,
  type BatchSummary,
  type BatchUpdateDetail,
  type RowProblem,
} from '../api/batch-updates-api';
import { rowLabel } from '../batch-updates';
import { batchMessages } from '../messages';

const PROBLEM_COLUMNS: readonly Column<RowProblem>[] = [
  { header: 'Row', cell: (p) => rowLabel(p.row), className: 'num' },
  { header: 'Column', cell: (p) => p.column || <span className="muted">—</span> },
  { header: 'Reason', cell: (p) => p.reason },
];

const BATCH_COLUMNS: readonly Column<BatchSummary>[] = [
  { header: 'GTIN', cell: (b) => b.gtin },
  { header: 'Batch', cell: (b) => b.batch_number },
  { header: 'Manufactured', cell: (b) => b.manufactured_on },
  { header: 'Expires', cell: (b) => b.expires_on },
  { header: 'Licence', cell: (b) => b.licence_number },
  { header: 'Codes', cell: (b) => formatNumber(b.codes), className: 'num' },
];

/** The problems of an update, row by row, as the server listed them. */
export function BatchProblems({ problems }: { problems: readonly RowProblem[] }) {
  return (
    <DataTable
      label="Problems"
      columns={PROBLEM_COLUMNS}
      rows={problems}
      rowKey={(p) => `${p.row}:${p.column}:${p.reason}`}
    />
  );
}

/** The link to an update's result file. */
export function ResultLink({ id }: { id: string }) {
  return (
    <a className="btn btn--secondary" href={resultUrl(id)} download>
      Download the result (CSV)
    </a>
  );
}

/**
 * How a finished update ended: valid (a check), applied with its batches,
 * its problems (nothing was changed), or why it failed; and its result file.
 */
export function BatchOutcome({ update }: { update: BatchUpdateDetail }) {
  const rows = batchMessages.rows(update.rows_read);
  return (
    <div className="batch-outcome">
      {update.status === 'valid' ? (
        <div className="alert alert--success" role="status">
          <div>
            No problems in {rows}. Nothing was changed: this was a check. Apply it to give the codes
            their batch data.
          </div>
        </div>
      ) : null}
      {update.status === 'applied' ? (
        <>
          <div className="alert alert--success" role="status">
            <div>
              Applied: {batchMessages.codes(update.rows_applied)} given their batch data, from{' '}
              {rows}.
            </div>
          </div>
          {update.batches.length > 0 ? (
            <DataTable
              label="Batches assigned"
              columns={BATCH_COLUMNS}
              rows={update.batches}
              rowKey={(b) => `${b.gtin}:${b.batch_number}:${b.licence_number}`}
            />
          ) : null}
        </>
      ) : null}
      {update.status === 'invalid' ? (
        <>
          <ErrorAlert>
            {batchMessages.problemRows(update.error_count, update.error_rows, update.rows_read)}.
            Nothing was changed: correct them and check again.
          </ErrorAlert>
          {update.error_count > update.errors.length ? (
            <p className="muted">
              The first {formatNumber(update.errors.length)} of{' '}
              {batchMessages.problems(update.error_count)} are listed here and in the result file.
            </p>
          ) : null}
          <BatchProblems problems={update.errors} />
        </>
      ) : null}
      {update.status === 'failed' ? (
        <ErrorAlert>
          The update could not finish; nothing was changed. {update.failure ?? 'Please try again.'}
        </ErrorAlert>
      ) : null}
      <div className="form-actions form-actions--start">
        <ResultLink id={update.id} />
      </div>
    </div>
  );
}
