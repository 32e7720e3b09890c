import { callApi, type ApiResult } from '@/lib/api/call-api';
import type { RequestBody, ResponseBody } from '@/lib/api/types';

export type Tenant = ResponseBody<'/api/platform/tenants', 'get', 200>[number];
export type NewTenant = RequestBody<'/api/platform/tenants', 'post'>;
/** New plan limits; those omitted keep their values. */
export type TenantLimits = RequestBody<'/api/platform/tenants/{client_id}', 'patch'>;

export function listTenants(): Promise<ApiResult<Tenant[]>> {
  return callApi((api) => api.GET('/api/platform/tenants'), 'The tenants could not be loaded.');
}

export function createTenant(tenant: NewTenant): Promise<ApiResult<Tenant>> {
  return callApi(
    (api) => api.POST('/api/platform/tenants', { body: tenant }),
    'The tenant could not be created.',
  );
}

/** Sets a tenant's plan limits; lowering one below current use is allowed. */
export function updateTenantLimits(
  clientId: string,
  limits: TenantLimits,
): Promise<ApiResult<Tenant>> {
  return callApi(
    (api) =>
      api.PATCH('/api/platform/tenants/{client_id}', {
        params: { path: { client_id: clientId } },
        body: limits,
      }),
    'The limits could not be updated.',
  );
}

/** Sets a tenant's plan modules (the whole list); its members' next requests follow it. */
export function updateTenantModules(
  clientId: string,
  modules: NonNullable<TenantLimits['modules']>,
): Promise<ApiResult<Tenant>> {
  return callApi(
    (api) =>
      api.PATCH('/api/platform/tenants/{client_id}', {
        params: { path: { client_id: clientId } },
        body: { modules },
      }),
    'The modules could not be saved.',
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
