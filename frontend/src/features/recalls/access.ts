import type { Role } from '@/lib/api/types';

/**
 * Who may start a recall: the roles with `createRecall` `call` rows in
 * `tenants/access/policy.csv` (brand admins and managers, and client
 * organisations' admins). Workers and client employees read recalls and
 * genealogies; the page's `view` row covers them, so this rule is mirrored
 * here to hide the recall form. The server refuses the call either way.
 */
const RECALLERS: readonly Role[] = ['admin', 'manager'];

export function canRecall(role: Role | null | undefined): boolean {
  return role !== null && role !== undefined && RECALLERS.includes(role);
}
