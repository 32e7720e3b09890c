import { formatBytes, formatNumber } from '@/lib/format';
import type { BatchStatus, BatchUpdate } from './api/batch-updates-api';
import type { BatchRun } from './api/use-batch-run';

/**
 * What the batch-update pages know of the engine (`backend/src/batch_updates`):
 * its columns, its limits, its statuses and how progress reads.
 */

/** The largest file the server takes, and the most rows. */
export const MAX_FILE_BYTES = 200 * 1024 * 1024;
export const MAX_ROWS = 1_000_000;

/** The columns of a file, in order, with what each takes (the server's `template::COLUMN_NOTES`). */
export const COLUMN_NOTES: readonly { name: string; note: string }[] = [
  {
    name: 'code',
    note: 'The code’s 11-character serial (as in your code downloads), or its full URI.',
  },
  {
    name: 'gtin',
    note: 'The product’s GTIN (8, 12, 13 or 14 digits, with its check digit): the GTIN the code was generated for.',
  },
  {
    name: 'batch_number',
    note: '1 to 20 letters, digits or GS1 punctuation; the code’s own batch when it was generated for one.',
  },
  { name: 'manufacturing_date', note: 'YYYY-MM-DD, not in the future.' },
  { name: 'expiry_date', note: 'YYYY-MM-DD, after the manufacturing date.' },
  {
    name: 'licence_number',
    note: 'The manufacturing licence number (required by Schedule H2), 1 to 50 characters.',
  },
];

export const FILE_RULES =
  'CSV (UTF-8) or XLSX, at most 200 MB and 1,000,000 rows. The header is row 1; only the first sheet of an XLSX is read.';

/** Still being worked on: poll it. */
export function isRunning(status: BatchStatus): boolean {
  return status === 'queued' || status === 'validating' || status === 'applying';
}

export const STATUS_LABELS: Record<BatchStatus, string> = {
  queued: 'Queued',
  validating: 'Checking',
  applying: 'Applying',
  valid: 'Valid',
  invalid: 'Has problems',
  applied: 'Applied',
  failed: 'Failed',
};

export const STATUS_BADGES: Record<BatchStatus, string> = {
  queued: 'badge',
  validating: 'badge badge--primary',
  applying: 'badge badge--primary',
  valid: 'badge badge--success',
  invalid: 'badge badge--danger',
  applied: 'badge badge--success',
  failed: 'badge badge--danger',
};

/** Why a chosen file cannot be sent, before sending it; null when it can. */
export function fileProblem(file: Pick<File, 'name' | 'size'>): string | null {
  if (!/\.(csv|xlsx)$/i.test(file.name)) {
    return `${file.name} is not a .csv or .xlsx file: save it as CSV (UTF-8) or XLSX.`;
  }
  if (file.size === 0) return `${file.name} is empty.`;
  if (file.size > MAX_FILE_BYTES) {
    return `${file.name} is ${formatBytes(file.size)}: at most 200 MB. Split it into smaller files.`;
  }
  return null;
}

/** Percent done, 0 to 100 (0 when the total is unknown). */
export function percent(done: number, total: number): number {
  if (!(total > 0)) return 0;
  return Math.max(0, Math.min(100, Math.round((done / total) * 100)));
}

/** `Row 12`, or `Whole file` for row 0. */
export function rowLabel(row: number): string {
  return row === 0 ? 'Whole file' : formatNumber(row);
}

/** What processing has done so far, in words: `1.2 MB of 4 MB read · 10,000 rows`. */
export function processingText(
  update: Pick<BatchUpdate, 'bytes_read' | 'size_bytes' | 'rows_read'>,
) {
  return `${formatBytes(update.bytes_read)} of ${formatBytes(update.size_bytes)} read · ${formatNumber(update.rows_read)} ${update.rows_read === 1 ? 'row' : 'rows'} checked`;
}

/** `File` updates show their file's name; the form's show that they came from it. */
export function sourceLabel(update: Pick<BatchUpdate, 'source' | 'file_name'>): string {
  return update.source === 'form' ? 'Manual entry' : update.file_name || 'File';
}

/**
 * Whether the chosen file (or the form) may be applied after `run`, and how
 * many codes applying it will change: only after a check (a dry run) of it
 * that found no problem. Otherwise `codes` is null, and `hint` says why
 * Apply is off.
 */
export function applyState(
  run: BatchRun,
  subject: 'file' | 'form' = 'file',
): { codes: number | null; hint: string | null } {
  const file = subject === 'file';
  if (run.phase === 'done' && run.update.dry_run && run.update.status === 'valid') {
    return { codes: run.update.rows_read, hint: null };
  }
  if (run.phase === 'done' && run.update.status === 'invalid') {
    return {
      codes: null,
      hint: file
        ? 'Apply stays off: this file has problems. Correct them, choose the file again and check it.'
        : 'Apply stays off: the check found problems. Correct them and check again.',
    };
  }
  if (run.phase === 'done' && run.update.status === 'applied') {
    return {
      codes: null,
      hint: file
        ? 'Applied. Choose another file to check and apply it.'
        : 'Applied. Change the form and check it to apply more.',
    };
  }
  return {
    codes: null,
    hint: `Check the ${subject} first: Apply opens once the check finds no problem.`,
  };
}
