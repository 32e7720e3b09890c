import { formatNumber } from '@/lib/format';

/** Every text the batch-update pages show for an outcome, in one place. */
export const batchMessages = {
  historyNotLoaded: 'The batch update history could not be loaded.',
  notRefreshed: 'The progress of the batch update could not be loaded.',
  notSent: 'The batch update could not be sent. Please try again.',
  jobsNotLoaded: 'Your code jobs could not be loaded.',
  refusedWithout: (status: number) => `The server refused the batch update (HTTP ${status}).`,
  pollFailed: (reason: string) =>
    `The progress could not be refreshed: ${reason} Trying again shortly.`,
  problems: (count: number) => `${formatNumber(count)} ${count === 1 ? 'problem' : 'problems'}`,
  rows: (count: number) => `${formatNumber(count)} ${count === 1 ? 'row' : 'rows'}`,
  codes: (count: number) => `${formatNumber(count)} ${count === 1 ? 'code' : 'codes'}`,
  /** `3 problems in 2 of 5 rows`: problems, and the rows that have them. */
  problemRows: (problems: number, rows: number, read: number) =>
    rows > 0
      ? `${batchMessages.problems(problems)} in ${formatNumber(rows)} of ${batchMessages.rows(read)}`
      : `${batchMessages.problems(problems)} in the file (${batchMessages.rows(read)} read)`,
  confirmApply: (codes: number) =>
    `Applying gives ${batchMessages.codes(codes)} this batch data. Apply it now?`,
  confirmApplyDetail: (source: string) =>
    `All rows of ${source || 'the file'} are applied, or none. A code that had batch data from an earlier update gets this one instead; the same file is applied once.`,
  applyLabel: (codes: number) => `Apply to ${batchMessages.codes(codes)}`,
} as const;

/** The heading of a refusal, by the server's status; the server's own text follows it. */
export function refusalTitle(status: number | null): string {
  switch (status) {
    case 409:
      return 'Already applied: this content was applied before, and is not applied twice.';
    case 413:
      return 'The file is too large: at most 200 MB and 1,000,000 rows.';
    case 415:
      return 'This is not a CSV or XLSX file.';
    case 400:
      return 'The update was refused.';
    case 403:
      return 'You may not make batch updates.';
    default:
      return 'The update could not be sent.';
  }
}
