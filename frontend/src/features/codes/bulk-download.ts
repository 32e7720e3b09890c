import { formatNumber } from '@/lib/format';
import { isDay } from '@/lib/validation';
import type { BulkSelection, CodeJob } from './api/codes-api';
import { isActive, isDownloadable } from './code-jobs';

/**
 * The bulk download's rules (`/pmbi/codeDownload`), the server's
 * (`backend/src/codes/bulk.rs`): batches (lots) or a range of days, not
 * both; at most 100 batches; a range with both days, the first not after
 * the last. The batches offered are those the organisation's jobs show.
 */
export const MAX_LOTS = 100;

/** A batch (lot) to offer, from the jobs: its codes ready to download and its jobs still running. */
export interface BulkLot {
  id: string;
  number: string;
  product_id: string;
  gtin: string;
  expires_on?: string;
  /** Codes of its done (or failed) jobs. */
  codes: number;
  /** Its jobs still generating. */
  pending: number;
}

/** The batches of `jobs`, each once, newest first (the jobs' order). */
export function bulkLotsOf(jobs: readonly CodeJob[]): BulkLot[] {
  const lots = new Map<string, BulkLot>();
  for (const job of jobs) {
    if (!job.lot_id || !job.lot) continue;
    const lot = lots.get(job.lot_id) ?? {
      id: job.lot_id,
      number: job.lot.number,
      product_id: job.product_id,
      gtin: job.gtin,
      expires_on: job.lot.expires_on,
      codes: 0,
      pending: 0,
    };
    if (isActive(job)) lot.pending += 1;
    else if (isDownloadable(job)) lot.codes += job.generated;
    lots.set(lot.id, lot);
  }
  return [...lots.values()];
}

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

/** The UTC day (`YYYY-MM-DD`) a job was created on, as the server counts days. */
function createdDay(job: Pick<CodeJob, 'created_at'>): string {
  return new Date(job.created_at).toISOString().slice(0, 10);
}

/** The codes ready in the selection and the jobs still generating, from the listed jobs. */
export function selectionCodes(
  jobs: readonly CodeJob[],
  selection: BulkSelection,
): { codes: number; jobs: number; pending: number } {
  const chosen =
    selection.kind === 'lots'
      ? jobs.filter((j) => j.lot_id !== undefined && selection.lotIds.includes(j.lot_id))
      : jobs.filter((j) => {
          const day = createdDay(j);
          return day >= selection.from && day <= selection.to;
        });
  const ready = chosen.filter((j) => isDownloadable(j) && j.generated > 0);
  return {
    codes: ready.reduce((sum, j) => sum + j.generated, 0),
    jobs: ready.length,
    pending: chosen.filter(isActive).length,
  };
}

/** `1,234 codes in 3 files`. */
export function summaryText({ codes, jobs }: { codes: number; jobs: number }): string {
  return `${formatNumber(codes)} ${codes === 1 ? 'code' : 'codes'} in ${formatNumber(jobs)} ${jobs === 1 ? 'file' : 'files'}`;
}
