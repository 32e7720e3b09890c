import { callApi, type ApiResult } from '@/lib/api/call-api';
import { toCodeHistory, type CodeHistory } from '../code-history';
import { scanMessages } from '../messages';

/** A scanned code's history (`GET /api/code-scans/{id}`), numbers coerced. */
export async function fetchCodeHistory(id: string): Promise<ApiResult<CodeHistory>> {
  const result = await callApi(
    (api) => api.GET('/api/code-scans/{id}', { params: { path: { id } } }),
    scanMessages.historyFailed,
  );
  return result.ok ? { ok: true, data: toCodeHistory(result.data) } : result;
}
