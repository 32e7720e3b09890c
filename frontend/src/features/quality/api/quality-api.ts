import { useApiResult } from '@/hooks/use-api-result';
import { callApi, type ApiResult } from '@/lib/api/call-api';
import type { RequestBody, ResponseBody } from '@/lib/api/types';

export type LotList = ResponseBody<'/api/lots', 'get', 200>;
export type Lot = LotList['lots'][number];
export type LotStatus = Lot['status'];
export type LotStatusChange = RequestBody<'/api/lots/{id}/status', 'post'>;
export type InspectionList = ResponseBody<'/api/inspections', 'get', 200>;
export type Inspection = InspectionList['inspections'][number];
export type NewInspection = RequestBody<'/api/inspections', 'post'>;
export type NewCheck = NewInspection['checks'][number];
export type InspectionRecorded = ResponseBody<'/api/inspections', 'post', 201>;
export type NonconformanceList = ResponseBody<'/api/nonconformances', 'get', 200>;
export type Nonconformance = NonconformanceList['nonconformances'][number];
export type NcState = Nonconformance['state'];
export type Severity = Nonconformance['severity'];
export type NewNonconformance = RequestBody<'/api/nonconformances', 'post'>;
export type NonconformanceChange = RequestBody<'/api/nonconformances/{id}', 'patch'>;

/** The lots in `status` (or every lot), newest first. */
export function fetchLots(status: LotStatus | ''): Promise<ApiResult<LotList>> {
  return callApi(
    (api) => api.GET('/api/lots', { params: { query: status ? { status } : {} } }),
    'The lots could not be loaded.',
  );
}

/** Changes a lot's status, with the reason (admins and managers). */
export function changeLotStatus(id: string, change: LotStatusChange): Promise<ApiResult<unknown>> {
  return callApi(
    (api) => api.POST('/api/lots/{id}/status', { params: { path: { id } }, body: change }),
    'The lot’s status could not be changed.',
  );
}

/** A lot's inspections, newest first, with their checks. */
export function fetchInspections(lotId: string): Promise<ApiResult<InspectionList>> {
  return callApi(
    (api) => api.GET('/api/inspections', { params: { query: { lot_id: lotId } } }),
    'The lot’s inspections could not be loaded.',
  );
}

/** A lot's inspections, newest first. */
export function useInspections(lotId: string) {
  return useApiResult(() => fetchInspections(lotId));
}

/** Records an inspection; the server decides its verdict and the lot's status. */
export function createInspection(body: NewInspection): Promise<ApiResult<InspectionRecorded>> {
  return callApi(
    (api) => api.POST('/api/inspections', { body }),
    'The inspection could not be recorded.',
  );
}

/** The nonconformances, newest first (the board). */
export function fetchNonconformances(): Promise<ApiResult<NonconformanceList>> {
  return callApi(
    (api) => api.GET('/api/nonconformances'),
    'The nonconformances could not be loaded.',
  );
}

/** The nonconformance board's data. */
export function useNonconformances() {
  return useApiResult(fetchNonconformances);
}

/** Raises a nonconformance (admins and managers). */
export function createNonconformance(body: NewNonconformance): Promise<ApiResult<Nonconformance>> {
  return callApi(
    (api) => api.POST('/api/nonconformances', { body }),
    'The nonconformance could not be raised.',
  );
}

/** Moves a nonconformance on and/or sets its CAPA fields (admins and managers). */
export function updateNonconformance(
  id: string,
  change: NonconformanceChange,
): Promise<ApiResult<Nonconformance>> {
  return callApi(
    (api) => api.PATCH('/api/nonconformances/{id}', { params: { path: { id } }, body: change }),
    'The nonconformance could not be changed.',
  );
}

/** Where a lot's certificate of analysis downloads from (a plain link). */
export function certificateUrl(lotId: string): string {
  return `/api/lots/${encodeURIComponent(lotId)}/coa.pdf`;
}
