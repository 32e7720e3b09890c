import type { Role } from '@/lib/api/types';

/**
 * Who may start code jobs and download codes: the roles with
 * `createCodeJob`, `downloadCodesCsv` and `downloadCodesZip` `call` rows in
 * `tenants/access/policy.csv`. Workers open the product page (their
 * `/products` view row covers it) and may follow the jobs (`listCodeJobs`,
 * `getCodeJob`), but the page's `view` row cannot say that they may not
 * start or download them, and the session lists pages, not operations; so
 * this one rule is mirrored here, as `features/products/access.ts` does for
 * products. The server refuses the calls either way.
 */
const CODE_ISSUERS: readonly Role[] = ['admin', 'manager'];

export function canIssueCodes(role: Role | null | undefined): boolean {
  return role !== null && role !== undefined && CODE_ISSUERS.includes(role);
}

/**
 * Who may download codes: the roles with `downloadCodesCsv` and
 * `downloadCodesZip` rows (brand admins and managers, client admins and
 * employees). Client employees open `/gme/codeDownload` and
 * `/pmbi/codeDownload` to download, but start no jobs.
 */
const CODE_DOWNLOADERS: readonly Role[] = ['admin', 'manager', 'employee'];

export function canDownloadCodes(role: Role | null | undefined): boolean {
  return role !== null && role !== undefined && CODE_DOWNLOADERS.includes(role);
}
