import { callApi, type ApiResult } from '@/lib/api/call-api';
import type { RequestBody, ResponseBody } from '@/lib/api/types';
import type { DateRange } from '../date-range';
import { scanMessages } from '../messages';
import { toScanAnalytics, type ScanAnalyticsData } from '../scan-analytics';

export type ScanSettings = ResponseBody<'/api/scan-settings', 'get', 200>;
export type ScanSettingsChange = RequestBody<'/api/scan-settings', 'put'>;

/** The dashboard's analytics for `range` (`GET /api/scan-analytics`), numbers coerced (spec §9). */
export async function fetchScanAnalytics(range: DateRange): Promise<ApiResult<ScanAnalyticsData>> {
  const result = await callApi(
    (api) => api.GET('/api/scan-analytics', { params: { query: range } }),
    scanMessages.analyticsFailed,
  );
  return result.ok ? { ok: true, data: toScanAnalytics(result.data, range) } : result;
}

/** When the server calls a scan suspicious. */
export function fetchScanSettings(): Promise<ApiResult<ScanSettings>> {
  return callApi((api) => api.GET('/api/scan-settings'), scanMessages.settingsNotLoaded);
}

/** Changes the suspicious-scan rules (organisation admins). */
export function saveScanSettings(settings: ScanSettingsChange): Promise<ApiResult<ScanSettings>> {
  return callApi(
    (api) => api.PUT('/api/scan-settings', { body: settings }),
    scanMessages.settingsNotSaved,
  );
}
