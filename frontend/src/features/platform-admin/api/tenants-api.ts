import { callApi, type ApiResult } from '@/lib/api/call-api';
import type { RequestBody, ResponseBody } from '@/lib/api/types';

export type Tenant = ResponseBody<'/api/platform/tenants', 'get', 200>[number];
export type NewTenant = RequestBody<'/api/platform/tenants', 'post'>;

export function listTenants(): Promise<ApiResult<Tenant[]>> {
  return callApi((api) => api.GET('/api/platform/tenants'), 'The tenants could not be loaded.');
}

export function createTenant(tenant: NewTenant): Promise<ApiResult<Tenant>> {
  return callApi(
    (api) => api.POST('/api/platform/tenants', { body: tenant }),
    'The tenant could not be created.',
  );
}

export function setTenantSuspended(
  clientId: string,
  suspended: boolean,
): Promise<ApiResult<Tenant>> {
  const params = { path: { client_id: clientId } };
  return suspended
    ? callApi(
        (api) => api.POST('/api/platform/tenants/{client_id}/suspend', { params }),
        'The tenant could not be suspended.',
      )
    : callApi(
        (api) => api.POST('/api/platform/tenants/{client_id}/reactivate', { params }),
        'The tenant could not be reactivated.',
      );
}
