import { useId, useRef, useState } from 'react';
import { toast } from 'react-toastify/unstyled';
import { ErrorAlert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { CardSection } from '@/components/ui/card-section';
import { DataTable, type Column } from '@/components/ui/data-table';
import { formatNumber } from '@/lib/format';
import { importProducts, type RowError } from '../api/products-api';
import { IMPORT_MAX_BYTES, importedMessage, readFileText, readyMessage } from '../product-import';

const ERROR_COLUMNS: readonly Column<RowError>[] = [
  { header: 'Row', cell: (e) => (e.row === 0 ? 'File' : formatNumber(e.row)), className: 'num' },
  { header: 'Column', cell: (e) => e.column || <span className="muted">—</span> },
  { header: 'Reason', cell: (e) => e.reason },
];

/** What the last check or import found. */
type Preview =
  | { kind: 'ready'; rows: number }
  | { kind: 'problems'; rows: number; errors: RowError[]; applied: boolean };

/** The problems of a file, row by row, as the server listed them. */
export function ImportProblems({ errors }: { errors: readonly RowError[] }) {
  return (
    <DataTable
      label="Import problems"
      columns={ERROR_COLUMNS}
      rows={errors}
      rowKey={(e) => `${e.row}:${e.column}:${e.reason}`}
    />
  );
}

/**
 * Import products from a CSV file: choosing a file checks it (a dry run) and
 * shows its problems or how many products are ready; Import applies it.
 * `onImported` runs after products were created.
 */
export function ProductImport({ onImported }: { onImported: () => void }) {
  const inputId = useId();
  const hintId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [csv, setCsv] = useState<string | null>(null);
  const [preview, setPreview] = useState<Preview | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<'check' | 'import' | null>(null);

  async function send(text: string, apply: boolean): Promise<void> {
    setBusy(apply ? 'import' : 'check');
    setError(null);
    const { result, refused } = await importProducts(text, apply);
    setBusy(null);
    if (result.ok) {
      const report = result.data;
      if (report.errors.length > 0) {
        setPreview({ kind: 'problems', rows: report.rows, errors: report.errors, applied: apply });
      } else if (apply) {
        toast.success(importedMessage(report.created));
        setPreview(null);
        setCsv(null);
        if (input.current) input.current.value = '';
        onImported();
      } else {
        setPreview({ kind: 'ready', rows: report.rows });
      }
      return;
    }
    if (refused) {
      setPreview({ kind: 'problems', rows: refused.rows, errors: refused.errors, applied: apply });
      setError(refused.error || null);
      return;
    }
    setPreview(null);
    setError(result.message);
  }

  async function choose(file: File | undefined) {
    setPreview(null);
    setError(null);
    setCsv(null);
    if (!file) return;
    if (file.size > IMPORT_MAX_BYTES) {
      setError(`${file.name} is larger than 4 MB: split it into smaller files.`);
      return;
    }
    const text = await readFileText(file);
    if (text === null) {
      setError(`${file.name} could not be read: choose it again.`);
      return;
    }
    setCsv(text);
    await send(text, false);
  }

  return (
    <CardSection title="Import products from CSV">
      <div className="field">
        <label className="field__label" htmlFor={inputId}>
          CSV file
        </label>
        <input
          ref={input}
          id={inputId}
          type="file"
          className="input"
          accept=".csv,text/csv"
          aria-describedby={hintId}
          disabled={busy !== null}
          onChange={(e) => void choose(e.target.files?.[0])}
        />
        <span className="field__hint" id={hintId}>
          A header row, then one product a row: product_name, skuid and gtin, optionally category
          and product_description. UTF-8, at most 5,000 rows and 4 MB.
        </span>
      </div>
      {busy === 'check' ? (
        <p className="muted" role="status">
          Checking the file…
        </p>
      ) : null}
      {error ? <ErrorAlert>{error}</ErrorAlert> : null}
      {preview?.kind === 'problems' ? (
        <>
          <p role="status">
            {preview.applied ? 'Nothing was imported: ' : ''}
            {formatNumber(preview.errors.length)}{' '}
            {preview.errors.length === 1 ? 'problem' : 'problems'} in {formatNumber(preview.rows)}{' '}
            rows. Correct the file and choose it again.
          </p>
          <ImportProblems errors={preview.errors} />
        </>
      ) : null}
      {preview?.kind === 'ready' ? (
        <>
          <p role="status">{readyMessage(preview.rows)}</p>
          {preview.rows > 0 ? (
            <Button busy={busy === 'import'} onClick={() => csv !== null && void send(csv, true)}>
              Import
            </Button>
          ) : null}
        </>
      ) : null}
    </CardSection>
  );
}
