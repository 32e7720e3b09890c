import { callApi, type ApiResult } from '@/lib/api/call-api';
import type { RequestBody, ResponseBody } from '@/lib/api/types';
import { codeMessages } from '../messages';

export type CodeJob = ResponseBody<'/api/code-jobs/{id}', 'get', 200>;
export type CodeJobStatus = CodeJob['status'];
export type Lot = NonNullable<CodeJob['lot']>;
export type CodeJobList = ResponseBody<'/api/code-jobs', 'get', 200>;
export type NewCodeJob = RequestBody<'/api/code-jobs', 'post'>;
export type CodeLotList = ResponseBody<'/api/codes/lots', 'get', 200>;
export type CodeLot = CodeLotList['lots'][number];
export type BulkSummary = ResponseBody<'/api/codes/bulk', 'get', 200>;

/** A product's code jobs, newest first, with the plan's code quota and what remains of it. */
export function listCodeJobs(productId: string): Promise<ApiResult<CodeJobList>> {
  return callApi(
    (api) => api.GET('/api/code-jobs', { params: { query: { product_id: productId } } }),
    codeMessages.notLoaded,
  );
}

/** One code job: its status and progress. */
export function getCodeJob(id: string): Promise<ApiResult<CodeJob>> {
  return callApi(
    (api) => api.GET('/api/code-jobs/{id}', { params: { path: { id } } }),
    codeMessages.jobNotLoaded,
  );
}

/** Starts a job (202: queued); the codes it needs are taken from the quota at once. */
export function createCodeJob(body: NewCodeJob): Promise<ApiResult<CodeJob>> {
  return callApi((api) => api.POST('/api/code-jobs', { body }), codeMessages.notStarted);
}

/**
 * The download addresses of a done (or failed) job's codes. Plain links: the
 * session cookie goes with them, and the server names the file.
 */
export function codesDownloadUrl(jobId: string, format: 'csv' | 'zip'): string {
  return `/api/code-jobs/${encodeURIComponent(jobId)}/codes.${format}`;
}

/** What a bulk download covers: lots (batches) by id, or the jobs of a range of days. */
export type BulkSelection =
  { kind: 'lots'; lotIds: readonly string[] } | { kind: 'range'; from: string; to: string };

/** The query of the bulk ZIP and of its summary: the chosen batches, or the range of days. */
function bulkQuery(selection: BulkSelection): { lot_id: string[] } | { from: string; to: string } {
  return selection.kind === 'lots'
    ? { lot_id: [...selection.lotIds] }
    : { from: selection.from, to: selection.to };
}

/**
 * The organisation's batches (lots) with code jobs, the one with the newest
 * job first: at most 2,000 (`more` when older ones are left out), each with
 * its product, its codes ready to download and its jobs still generating.
 */
export function listCodeLots(): Promise<ApiResult<CodeLotList>> {
  return callApi((api) => api.GET('/api/codes/lots'), codeMessages.lotsNotLoaded);
}

/**
 * What the bulk ZIP of `selection` would hold (`summarizeCodesBulk`): its
 * files, their codes and the jobs still generating; or the download's own
 * refusal (nothing to download, still generating, too many jobs) as a
 * failure with the server's message.
 */
export function summarizeCodesBulk(selection: BulkSelection): Promise<ApiResult<BulkSummary>> {
  return callApi(
    (api) => api.GET('/api/codes/bulk', { params: { query: bulkQuery(selection) } }),
    codeMessages.summaryNotLoaded,
  );
}

/**
 * The address of the bulk ZIP of `selection` (`downloadCodesBulk`): a plain
 * link, so the browser streams the file to disk and the session cookie goes
 * with it.
 */
export function bulkDownloadUrl(selection: BulkSelection): string {
  const query = new URLSearchParams();
  for (const [name, values] of Object.entries(bulkQuery(selection))) {
    for (const value of [values].flat()) query.append(name, value);
  }
  return `/api/codes/bulk.zip?${query.toString()}`;
}
