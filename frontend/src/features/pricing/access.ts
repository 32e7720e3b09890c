import type { Role } from '@/lib/api/types';

/**
 * Who may do what on `/Pricing`, mirrored from the `call` rows of
 * `tenants/access/policy.csv` (the session lists pages, not operations). The
 * server refuses the calls either way; this only hides the form.
 */

/** Create and replace price lists: brand admins and managers, client admins. */
const EDITORS: readonly Role[] = ['admin', 'manager'];

export function canEditPrices(role: Role | null | undefined): boolean {
  return role !== null && role !== undefined && EDITORS.includes(role);
}
