import { useApiResult } from '@/hooks/use-api-result';
import { callApi, type ApiResult } from '@/lib/api/call-api';
import type { ResponseBody } from '@/lib/api/types';

export type Organisation = ResponseBody<'/api/organisation', 'get', 200>;
export type UsageRow = Organisation['usage'][number];

function fetchOrganisation(): Promise<ApiResult<Organisation>> {
  return callApi(
    (api) => api.GET('/api/organisation'),
    'Your organisation’s details could not be loaded.',
  );
}

/** The signed-in user's organisation: limits, usage and modules. */
export function useOrganisation() {
  return useApiResult(fetchOrganisation);
}

/** Renames the organisation (organisation admins). */
export function renameOrganisation(name: string): Promise<ApiResult<Organisation>> {
  return callApi(
    (api) => api.PUT('/api/organisation', { body: { name } }),
    'The name could not be saved.',
  );
}

/**
 * Sets the organisation's logo (organisation admins): `file` already checked
 * (a PNG, JPEG or WebP of at most 5 MB); it replaces the logo before it.
 */
export function uploadOrganisationLogo(file: File): Promise<ApiResult<Organisation>> {
  return callApi(
    (api) =>
      api.PUT('/api/organisation/logo', {
        // The contract types the binary part as a string; the browser sends the file.
        body: { file: '' },
        bodySerializer: () => {
          const form = new FormData();
          form.append('file', file);
          return form;
        },
      }),
    'The logo could not be uploaded.',
  );
}

/** Removes the organisation's logo (organisation admins). */
export function removeOrganisationLogo(): Promise<ApiResult<Organisation>> {
  return callApi((api) => api.DELETE('/api/organisation/logo'), 'The logo could not be removed.');
}

/**
 * Sets the organisation's GS1 company prefix (organisation admins): 6 to 12
 * digits, from which its shipments' SSCCs are built.
 */
export function updateGs1CompanyPrefix(companyPrefix: string): Promise<ApiResult<Organisation>> {
  return callApi(
    (api) => api.PUT('/api/organisation/gs1', { body: { company_prefix: companyPrefix } }),
    'The GS1 company prefix could not be saved.',
  );
}
