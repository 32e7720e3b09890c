import { formatNumber } from '@/lib/format';
import { isDay } from '@/lib/validation';
import type { BulkSelection } from './api/codes-api';

/**
 * The bulk download's rules (`/pmbi/codeDownload`), the server's
 * (`backend/src/codes/bulk.rs`): batches (lots) or a range of days, not
 * both; at most 100 batches; a range with both days, the first not after
 * the last. The page checks these before asking the server what a
 * selection holds (`summarizeCodesBulk`): the counting is the server's.
 */
export const MAX_LOTS = 100;

export type BulkMode = 'lots' | 'range';

/** The selection the form's state makes, or why it makes none. */
export function bulkSelection(
  mode: BulkMode,
  lotIds: readonly string[],
  from: string,
  to: string,
): { ok: true; selection: BulkSelection } | { ok: false; reason: string } {
  if (mode === 'lots') {
    if (lotIds.length === 0) return { ok: false, reason: 'Choose at least one batch.' };
    if (lotIds.length > MAX_LOTS)
      return { ok: false, reason: `Choose at most ${MAX_LOTS} batches at once.` };
    return { ok: true, selection: { kind: 'lots', lotIds } };
  }
  if (!from || !to) return { ok: false, reason: 'Enter the first and the last day.' };
  if (!isDay(from) || !isDay(to)) return { ok: false, reason: 'Enter the days as dates.' };
  if (from > to) return { ok: false, reason: 'The first day must not be after the last.' };
  return { ok: true, selection: { kind: 'range', from, to } };
}

/** `1,234 codes in 3 files`. */
export function summaryText({ codes, files }: { codes: number; files: number }): string {
  return `${formatNumber(codes)} ${codes === 1 ? 'code' : 'codes'} in ${formatNumber(files)} ${files === 1 ? 'file' : 'files'}`;
}
