import { useApiResult } from '@/hooks/use-api-result';
import { callApi, type ApiResult } from '@/lib/api/call-api';
import type { RequestBody, ResponseBody } from '@/lib/api/types';

export type CompanyList = ResponseBody<'/api/companies', 'get', 200>;
export type Company = CompanyList['companies'][number];
export type NewCompany = RequestBody<'/api/companies', 'post'>;
export type CompanyOverview = ResponseBody<'/api/companies/{id}/overview', 'get', 200>;
export type CompanyProduct = CompanyOverview['products'][number];
export type CompanyBatch = CompanyOverview['batches'][number];
export type ClientOverview = ResponseBody<'/api/client-overview', 'get', 200>;

/** The organisation's companies, by CIN (one request). */
export function fetchCompanies(): Promise<ApiResult<CompanyList>> {
  return callApi((api) => api.GET('/api/companies'), 'Your companies could not be loaded.');
}

/** The organisation's companies, by CIN. */
export function useCompanies() {
  return useApiResult(fetchCompanies);
}

/** Adds a company (organisation admins). */
export function createCompany(company: NewCompany): Promise<ApiResult<Company>> {
  return callApi(
    (api) => api.POST('/api/companies', { body: company }),
    'The company could not be added.',
  );
}

/** One company's products, batches and codes (one request). */
export function fetchCompanyOverview(id: string): Promise<ApiResult<CompanyOverview>> {
  return callApi(
    (api) => api.GET('/api/companies/{id}/overview', { params: { path: { id } } }),
    'This company’s overview could not be loaded.',
  );
}

/** One company's products, batches and codes. */
export function useCompanyOverview(id: string) {
  return useApiResult(() => fetchCompanyOverview(id));
}

/** The signed-in client organisation's codes and newest batches (its dashboard). */
export function fetchClientOverview(): Promise<ApiResult<ClientOverview>> {
  return callApi(
    (api) => api.GET('/api/client-overview'),
    'Your codes and batches could not be loaded.',
  );
}

/** The signed-in client organisation's codes and newest batches. */
export function useClientOverview() {
  return useApiResult(fetchClientOverview);
}
