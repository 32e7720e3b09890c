import type { Role } from '@/lib/api/types';

/**
 * Who may change and archive products: the roles with `updateProduct` and
 * `archiveProduct` `call` rows in `tenants/access/policy.csv`. The policy's
 * `view` rows cannot say this (a worker's `/products` covers every page
 * below it, edit pages too) and the session lists pages, not operations, so
 * this one rule is mirrored here. The server refuses the calls either way.
 */
const PRODUCT_EDITORS: readonly Role[] = ['admin', 'manager'];

export function canChangeProducts(role: Role | null | undefined): boolean {
  return role !== null && role !== undefined && PRODUCT_EDITORS.includes(role);
}
