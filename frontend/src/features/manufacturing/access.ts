import type { Role } from '@/lib/api/types';

/**
 * Who may create bills of materials and manufacturing orders and cancel
 * orders: the roles with `createBom`, `createManufacturingOrder` and
 * `cancelManufacturingOrder` `call` rows in `tenants/access/policy.csv`
 * (admins and managers, and clients' admins). Workers and client employees
 * read, start and complete orders. The server refuses the calls either way.
 */
const PLANNERS: readonly Role[] = ['admin', 'manager'];

export function canPlanManufacturing(role: Role | null | undefined): boolean {
  return role !== null && role !== undefined && PLANNERS.includes(role);
}
