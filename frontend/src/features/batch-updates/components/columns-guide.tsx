import { DataTable, type Column } from '@/components/ui/data-table';
import { templateUrls } from '../api/batch-updates-api';
import { COLUMN_NOTES } from '../batch-updates';

type ColumnNote = (typeof COLUMN_NOTES)[number];

const COLUMNS: readonly Column<ColumnNote>[] = [
  { header: 'Column', cell: (c) => <code>{c.name}</code> },
  { header: 'What it takes', cell: (c) => c.note },
];

/** The columns of a batch-update file, what each takes, and the templates. */
export function ColumnsGuide() {
  return (
    <>
      <p className="muted">
        A header row naming these columns (in any order), then one code a row.
      </p>
      <DataTable
        label="File columns"
        columns={COLUMNS}
        rows={COLUMN_NOTES}
        rowKey={(c) => c.name}
      />
      <div className="form-actions form-actions--start">
        <a className="btn btn--secondary" href={templateUrls.csv} download>
          CSV template
        </a>
        <a className="btn btn--secondary" href={templateUrls.xlsx} download>
          XLSX template
        </a>
      </div>
    </>
  );
}
