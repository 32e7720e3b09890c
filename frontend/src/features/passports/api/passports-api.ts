import { useApiResult } from '@/hooks/use-api-result';
import { callApi, type ApiResult } from '@/lib/api/call-api';
import type { RequestBody, ResponseBody } from '@/lib/api/types';

export type PassportList = ResponseBody<'/api/passports', 'get', 200>;
export type PassportSummary = PassportList['products'][number];
export type Passport = ResponseBody<'/api/passports/{product_id}', 'get', 200>;
export type PassportData = RequestBody<'/api/passports/{product_id}', 'put'>;
export type PassportVersions = ResponseBody<'/api/passports/{product_id}/versions', 'get', 200>;
export type PassportVersionInfo = PassportVersions['versions'][number];

function listPassports(): Promise<ApiResult<PassportList>> {
  return callApi((api) => api.GET('/api/passports'), 'The passports could not be loaded.');
}

/** The organisation's products with their passports' completeness (the /DPP list). */
export function usePassportList() {
  return useApiResult(listPassports);
}

const lotQuery = (lot: string | null) => (lot ? { lot } : {});

/** The current passport of a product, or of a lot (falling back to the product's). */
export function getPassport(productId: string, lot: string | null): Promise<ApiResult<Passport>> {
  return callApi(
    (api) =>
      api.GET('/api/passports/{product_id}', {
        params: { path: { product_id: productId }, query: lotQuery(lot) },
      }),
    'The passport could not be loaded.',
  );
}

/** Saves the whole passport as a new version and answers it. */
export function savePassport(
  productId: string,
  lot: string | null,
  data: PassportData,
): Promise<ApiResult<Passport>> {
  return callApi(
    (api) =>
      api.PUT('/api/passports/{product_id}', {
        params: { path: { product_id: productId }, query: lotQuery(lot) },
        body: data,
      }),
    'The passport could not be saved.',
  );
}

export function listVersions(
  productId: string,
  lot: string | null,
): Promise<ApiResult<PassportVersions>> {
  return callApi(
    (api) =>
      api.GET('/api/passports/{product_id}/versions', {
        params: { path: { product_id: productId }, query: lotQuery(lot) },
      }),
    'The passport’s versions could not be loaded.',
  );
}

export function getVersion(
  productId: string,
  version: number,
  lot: string | null,
): Promise<ApiResult<Passport>> {
  return callApi(
    (api) =>
      api.GET('/api/passports/{product_id}/versions/{version}', {
        params: { path: { product_id: productId, version }, query: lotQuery(lot) },
      }),
    'This version could not be loaded.',
  );
}
