import { callApi, type ApiResult } from '@/lib/api/call-api';
import type { RequestBody, ResponseBody } from '@/lib/api/types';
import { codeMessages } from '../messages';

export type CodeJob = ResponseBody<'/api/code-jobs/{id}', 'get', 200>;
export type CodeJobStatus = CodeJob['status'];
export type Lot = NonNullable<CodeJob['lot']>;
export type CodeJobList = ResponseBody<'/api/code-jobs', 'get', 200>;
export type NewCodeJob = RequestBody<'/api/code-jobs', 'post'>;

/** A product's code jobs, newest first, with the plan's code quota and what remains of it. */
export function listCodeJobs(productId: string): Promise<ApiResult<CodeJobList>> {
  return callApi(
    (api) => api.GET('/api/code-jobs', { params: { query: { product_id: productId } } }),
    codeMessages.notLoaded,
  );
}

/** The organisation's newest code jobs (at most 500), every product's. */
export function listAllCodeJobs(): Promise<ApiResult<CodeJobList>> {
  return callApi((api) => api.GET('/api/code-jobs'), codeMessages.notLoaded);
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

/**
 * The address of the bulk ZIP of `selection` (`downloadCodesBulk`): a plain
 * link, so the browser streams the file to disk and the session cookie goes
 * with it.
 */
export function bulkDownloadUrl(selection: BulkSelection): string {
  const query = new URLSearchParams();
  if (selection.kind === 'lots') for (const id of selection.lotIds) query.append('lot_id', id);
  else {
    query.set('from', selection.from);
    query.set('to', selection.to);
  }
  return `/api/codes/bulk.zip?${query.toString()}`;
}
