import { callApi, type ApiResult } from '@/lib/api/call-api';
import type { RequestBody, ResponseBody } from '@/lib/api/types';
import { labelMessages } from '../messages';

export type LabelTemplate = ResponseBody<'/api/label-templates/{id}', 'get', 200>;
export type LabelTemplateList = ResponseBody<'/api/label-templates', 'get', 200>;
export type NewLabelTemplate = RequestBody<'/api/label-templates', 'post'>;
export type Design = LabelTemplate['design'];
export type Symbology = Design['symbology'];
export type Sheet = Design['sheet'];
export type LabelFields = Design['fields'];
export type PreviewRequest = RequestBody<'/api/label-templates/preview', 'post'>;

export type PrintJob = ResponseBody<'/api/print-jobs/{id}', 'get', 200>;
export type PrintJobList = ResponseBody<'/api/print-jobs', 'get', 200>;
export type PrintJobStatus = PrintJob['status'];
export type PrintFormat = PrintJob['format'];
export type NewPrintJob = RequestBody<'/api/print-jobs', 'post'>;

export type CodeJob = ResponseBody<'/api/code-jobs/{id}', 'get', 200>;
export type CodeJobStatus = CodeJob['status'];
export type CodeJobList = ResponseBody<'/api/code-jobs', 'get', 200>;
export type ProductList = ResponseBody<'/api/product-handler', 'get', 200>;

/** The organisation's templates, by name. */
export function listLabelTemplates(): Promise<ApiResult<LabelTemplateList>> {
  return callApi((api) => api.GET('/api/label-templates'), labelMessages.templatesNotLoaded);
}

/** Saves a new template (201); the server checks the design with its renderer. */
export function createLabelTemplate(body: NewLabelTemplate): Promise<ApiResult<LabelTemplate>> {
  return callApi(
    (api) => api.POST('/api/label-templates', { body }),
    labelMessages.templateNotSaved,
  );
}

/** Replaces a template's name and design. */
export function updateLabelTemplate(
  id: string,
  body: NewLabelTemplate,
): Promise<ApiResult<LabelTemplate>> {
  return callApi(
    (api) => api.PUT('/api/label-templates/{id}', { params: { path: { id } }, body }),
    labelMessages.templateNotSaved,
  );
}

/** Removes a template from use (204); print jobs made with it keep their copy. */
export function deleteLabelTemplate(id: string): Promise<ApiResult<unknown>> {
  return callApi(
    (api) => api.DELETE('/api/label-templates/{id}', { params: { path: { id } } }),
    labelMessages.templateNotDeleted,
  );
}

/**
 * One label of `design` as a PNG (8 dots per millimetre), with the first code
 * of a code job or a sample code. A design the renderer refuses is a 400
 * whose message says what to change.
 */
export function previewLabel(body: PreviewRequest): Promise<ApiResult<Blob>> {
  return callApi(
    (api) => api.POST('/api/label-templates/preview', { body, parseAs: 'blob' }),
    labelMessages.previewFailed,
  );
}

/** The organisation's print jobs, newest first. */
export function listPrintJobs(): Promise<ApiResult<PrintJobList>> {
  return callApi((api) => api.GET('/api/print-jobs'), labelMessages.printJobsNotLoaded);
}

/** Starts a print job (202: queued) of a done code job's codes. */
export function createPrintJob(body: NewPrintJob): Promise<ApiResult<PrintJob>> {
  return callApi((api) => api.POST('/api/print-jobs', { body }), labelMessages.printNotStarted);
}

/** Prints again what a job printed, with the design it was printed with (202: queued). */
export function reprintPrintJob(id: string): Promise<ApiResult<PrintJob>> {
  return callApi(
    (api) => api.POST('/api/print-jobs/{id}/reprint', { params: { path: { id } } }),
    labelMessages.printNotStarted,
  );
}

/**
 * The address of a done job's file (PDF, or ZPL as text). A plain link: the
 * session cookie goes with it, and the server names the file.
 */
export function printOutputUrl(jobId: string): string {
  return `/api/print-jobs/${encodeURIComponent(jobId)}/output`;
}

/** The organisation's code jobs, newest first (at most 500), of every product. */
export function listCodeJobs(): Promise<ApiResult<CodeJobList>> {
  return callApi((api) => api.GET('/api/code-jobs'), labelMessages.codeJobsNotLoaded);
}

/** The organisation's active products (for their names). */
export function listProducts(): Promise<ApiResult<ProductList>> {
  return callApi(
    (api) => api.GET('/api/product-handler', { params: { query: { action: 'allproducts' } } }),
    labelMessages.codeJobsNotLoaded,
  );
}
