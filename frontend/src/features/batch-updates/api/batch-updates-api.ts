import { callApi, endSession, NETWORK_ERROR_MESSAGE, type ApiResult } from '@/lib/api/call-api';
import type { RequestBody, ResponseBody } from '@/lib/api/types';
import { useAppStore } from '@/stores/app-store';
import { batchMessages } from '../messages';

export type BatchUpdate = ResponseBody<'/api/batch-updates', 'post', 202>;
export type BatchUpdateDetail = ResponseBody<'/api/batch-updates/{id}', 'get', 200>;
export type BatchUpdateList = ResponseBody<'/api/batch-updates', 'get', 200>;
export type BatchStatus = BatchUpdate['status'];
export type RowProblem = BatchUpdateDetail['errors'][number];
export type BatchSummary = BatchUpdateDetail['batches'][number];
/** The manual form's JSON body (the operation also takes a multipart file). */
export type BatchForm = Extract<RequestBody<'/api/batch-updates', 'post'>, { gtin: string }>;
export type CodeJobList = ResponseBody<'/api/code-jobs', 'get', 200>;
export type CodeJob = CodeJobList['jobs'][number];

/** The organisation's updates, newest first (the history). */
export function listBatchUpdates(): Promise<ApiResult<BatchUpdateList>> {
  return callApi((api) => api.GET('/api/batch-updates'), batchMessages.historyNotLoaded);
}

/** One update: its status, progress, first problems and batches. */
export function getBatchUpdate(id: string): Promise<ApiResult<BatchUpdateDetail>> {
  return callApi(
    (api) => api.GET('/api/batch-updates/{id}', { params: { path: { id } } }),
    batchMessages.notRefreshed,
  );
}

/** Sends the manual form (JSON); 202 with the queued update. */
export function submitBatchForm(body: BatchForm, dryRun: boolean): Promise<ApiResult<BatchUpdate>> {
  return callApi(
    (api) =>
      api.POST('/api/batch-updates', {
        params: { query: { dry_run: dryRun ? 'true' : 'false' } },
        body,
      }),
    batchMessages.notSent,
  );
}

/**
 * The organisation's code jobs, for the form's range. Client users may not
 * be allowed to list them (a 403): the form then asks for the job's id.
 */
export function listCodeJobs(): Promise<ApiResult<CodeJobList>> {
  return callApi((api) => api.GET('/api/code-jobs'), batchMessages.jobsNotLoaded);
}

/** The templates and an update's result: plain links, the session cookie goes with them. */
export const templateUrls = {
  csv: '/api/batch-updates/template.csv',
  xlsx: '/api/batch-updates/template.xlsx',
} as const;

export function resultUrl(id: string): string {
  return `/api/batch-updates/${encodeURIComponent(id)}/result.csv`;
}

/** How far the upload of the request body has come. */
export interface UploadProgress {
  loaded: number;
  total: number;
}

/** Reads an error envelope from an answer's text, without trusting it. */
function errorBody(text: string): { error: string; code: string } | null {
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value !== 'object' || value === null) return null;
    const { error, code } = value as Record<string, unknown>;
    if (typeof error !== 'string' && typeof code !== 'string') return null;
    return {
      error: typeof error === 'string' ? error : '',
      code: typeof code === 'string' ? code : '',
    };
  } catch {
    return null;
  }
}

/**
 * Uploads a file (multipart, field `file`) with `XMLHttpRequest`, the one
 * browser API that reports upload progress (`fetch` does not). It sends what
 * the generated client sends (the session cookie and the `x-csrf-token`
 * header) and answers an `ApiResult` as `callApi` does: a network failure,
 * the server's envelope, and `unauthenticated` signs out. It never throws.
 */
export function uploadBatchFile(
  file: File,
  dryRun: boolean,
  onProgress: (progress: UploadProgress) => void,
): Promise<ApiResult<BatchUpdate>> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/api/batch-updates?dry_run=${dryRun ? 'true' : 'false'}`);
    xhr.withCredentials = true;
    xhr.setRequestHeader('accept', 'application/json');
    const token = useAppStore.getState().auth.csrfToken;
    if (token) xhr.setRequestHeader('x-csrf-token', token);
    xhr.upload.onprogress = (event: ProgressEvent) => {
      onProgress({ loaded: event.loaded, total: event.lengthComputable ? event.total : file.size });
    };
    xhr.onload = () => {
      const text = typeof xhr.responseText === 'string' ? xhr.responseText : '';
      if (xhr.status >= 200 && xhr.status < 300) {
        try {
          resolve({ ok: true, data: JSON.parse(text) as BatchUpdate });
        } catch {
          resolve({ ok: false, kind: 'unexpected', message: batchMessages.notSent });
        }
        return;
      }
      const body = errorBody(text);
      if (body?.code === 'unauthenticated') endSession();
      resolve({
        ok: false,
        kind: 'status',
        status: xhr.status,
        body,
        message: body?.error || batchMessages.refusedWithout(xhr.status),
      });
    };
    const offline = () => resolve({ ok: false, kind: 'network', message: NETWORK_ERROR_MESSAGE });
    xhr.onerror = offline;
    xhr.onabort = offline;
    xhr.ontimeout = () =>
      resolve({ ok: false, kind: 'unexpected', message: batchMessages.notSent });
    const form = new FormData();
    form.append('file', file, file.name);
    xhr.send(form);
  });
}
