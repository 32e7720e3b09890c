import { useApiResult } from '@/hooks/use-api-result';
import { callApi, type ApiResult } from '@/lib/api/call-api';
import type { ResponseBody } from '@/lib/api/types';

export type GetStarted = ResponseBody<'/api/organisation/get-started', 'get', 200>;
export type GetStartedStep = GetStarted['steps'][number];

function fetchGetStarted(): Promise<ApiResult<GetStarted>> {
  return callApi(
    (api) => api.GET('/api/organisation/get-started'),
    'The “Get started” steps could not be loaded.',
  );
}

/** The organisation's "Get started" checklist, computed by the server from its own data. */
export function useGetStarted() {
  return useApiResult(fetchGetStarted);
}

/** Hides the checklist for the signed-in user, or shows it again (kept on the server). */
export function setGetStartedDismissed(dismissed: boolean): Promise<ApiResult<GetStarted>> {
  return callApi(
    (api) => api.PUT('/api/organisation/get-started', { body: { dismissed } }),
    dismissed ? 'The checklist could not be hidden.' : 'The checklist could not be shown again.',
  );
}
