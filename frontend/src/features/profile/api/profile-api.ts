import { callApi, type ApiResult } from '@/lib/api/call-api';
import type { ResponseBody } from '@/lib/api/types';

export type Me = ResponseBody<'/api/me', 'get', 200>;

export function fetchMe(): Promise<ApiResult<Me>> {
  return callApi((api) => api.GET('/api/me'), 'Your profile could not be loaded.');
}

export function changeOwnPassword(
  currentPassword: string,
  newPassword: string,
): Promise<ApiResult<unknown>> {
  return callApi(
    (api) => api.PUT('/api/me/password', { body: { currentPassword, newPassword } }),
    'Your password could not be changed. Please try again.',
  );
}
