import type { Role } from '@/lib/api/types';

/**
 * Who may do what on `/procurement`, mirrored from the `call` rows of
 * `tenants/access/policy.csv` (the session lists pages, not operations). The
 * server refuses the calls either way; these only hide the forms.
 */

/**
 * Add suppliers, create, confirm and cancel orders, record and approve bills:
 * brand admins and managers, and client organisations' admins.
 */
const BUYERS: readonly Role[] = ['admin', 'manager'];

/** Receive goods: every member (workers and client employees too). */
const RECEIVERS: readonly Role[] = ['admin', 'manager', 'worker', 'employee'];

function has(roles: readonly Role[], role: Role | null | undefined): boolean {
  return role !== null && role !== undefined && roles.includes(role);
}

export function canBuy(role: Role | null | undefined): boolean {
  return has(BUYERS, role);
}

export function canReceive(role: Role | null | undefined): boolean {
  return has(RECEIVERS, role);
}

/** Only an admin approves a bill that does not match (with a reason). */
export function canApproveMismatch(role: Role | null | undefined): boolean {
  return role === 'admin';
}
