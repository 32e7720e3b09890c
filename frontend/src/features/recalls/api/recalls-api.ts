import { useApiResult } from '@/hooks/use-api-result';
import { callApi, type ApiResult } from '@/lib/api/call-api';
import type { RequestBody, ResponseBody } from '@/lib/api/types';

export type LotList = ResponseBody<'/api/lots', 'get', 200>;
export type Lot = LotList['lots'][number];
export type Genealogy = ResponseBody<'/api/lots/{id}/genealogy', 'get', 200>;
export type UpstreamLot = Genealogy['upstream'][number];
export type DownstreamLot = Genealogy['downstream'][number];
export type Recall = ResponseBody<'/api/recalls', 'post', 201>;
export type RecallList = ResponseBody<'/api/recalls', 'get', 200>;
export type RecallSummary = RecallList['recalls'][number];
export type NewRecall = RequestBody<'/api/recalls', 'post'>;

/** The organisation's lots, newest first (at most 500). */
export function fetchLots(): Promise<ApiResult<LotList>> {
  return callApi((api) => api.GET('/api/lots'), 'The lots could not be loaded.');
}

/** A lot's genealogy, upstream and downstream. */
export function fetchGenealogy(lotId: string): Promise<ApiResult<Genealogy>> {
  return callApi(
    (api) => api.GET('/api/lots/{id}/genealogy', { params: { path: { id: lotId } } }),
    'The lot’s genealogy could not be loaded.',
  );
}

/** A lot's genealogy, loaded on mount. */
export function useGenealogy(lotId: string) {
  return useApiResult(() => fetchGenealogy(lotId));
}

/** Recalls a lot and every lot made from it (admins and managers). */
export function createRecall(body: NewRecall): Promise<ApiResult<Recall>> {
  return callApi((api) => api.POST('/api/recalls', { body }), 'The lot could not be recalled.');
}

/** The recalls, newest first. */
export function fetchRecalls(): Promise<ApiResult<RecallList>> {
  return callApi((api) => api.GET('/api/recalls'), 'The recalls could not be loaded.');
}

/** One recall with its lots, shipments and customers. */
export function fetchRecall(id: string): Promise<ApiResult<Recall>> {
  return callApi(
    (api) => api.GET('/api/recalls/{id}', { params: { path: { id } } }),
    'The recall could not be loaded.',
  );
}

/** The CSV of a recall's affected lots, shipments and customers. */
export function affectedCsvUrl(id: string): string {
  return `/api/recalls/${encodeURIComponent(id)}/affected.csv`;
}

/** How people quote a recall's number: RC-000042. */
export function recallNumber(n: number): string {
  return `RC-${String(n).padStart(6, '0')}`;
}

/** How people quote a shipment's or a purchase order's number. */
export function quoted(prefix: 'SH' | 'PO', n: number): string {
  return `${prefix}-${String(n).padStart(6, '0')}`;
}
