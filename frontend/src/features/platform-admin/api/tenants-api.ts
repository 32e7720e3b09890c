import { api } from '@/lib/api/client';
import { NETWORK_ERROR_MESSAGE as NETWORK, asProblem, isNetworkError } from '@/lib/api/problem';
import type { RequestBody, ResponseBody } from '@/lib/api/types';

export type Tenant = ResponseBody<'/api/platform/tenants', 'get', 200>[number];
export type NewTenant = RequestBody<'/api/platform/tenants', 'post'>;

export type Result<T> = { ok: true; data: T } | { ok: false; message: string };

function failure(error: unknown, fallback: string): { ok: false; message: string } {
  return { ok: false, message: asProblem(error)?.error || fallback };
}

export async function listTenants(): Promise<Result<Tenant[]>> {
  try {
    const { data, error } = await api.GET('/api/platform/tenants');
    return data ? { ok: true, data } : failure(error, 'The tenants could not be loaded.');
  } catch (err) {
    return {
      ok: false,
      message: isNetworkError(err) ? NETWORK : 'The tenants could not be loaded.',
    };
  }
}

export async function createTenant(tenant: NewTenant): Promise<Result<Tenant>> {
  try {
    const { data, error } = await api.POST('/api/platform/tenants', { body: tenant });
    return data ? { ok: true, data } : failure(error, 'The tenant could not be created.');
  } catch (err) {
    return {
      ok: false,
      message: isNetworkError(err) ? NETWORK : 'The tenant could not be created.',
    };
  }
}

export async function setTenantSuspended(
  clientId: string,
  suspended: boolean,
): Promise<Result<Tenant>> {
  const fallback = suspended
    ? 'The tenant could not be suspended.'
    : 'The tenant could not be reactivated.';
  try {
    const params = { path: { client_id: clientId } };
    const { data, error } = suspended
      ? await api.POST('/api/platform/tenants/{client_id}/suspend', { params })
      : await api.POST('/api/platform/tenants/{client_id}/reactivate', { params });
    return data ? { ok: true, data } : failure(error, fallback);
  } catch (err) {
    return { ok: false, message: isNetworkError(err) ? NETWORK : fallback };
  }
}
