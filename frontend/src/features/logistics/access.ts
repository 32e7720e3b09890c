import type { Role } from '@/lib/api/types';

/**
 * Who may do what on `/Logistics`, mirrored from the `call` rows of
 * `tenants/access/policy.csv` (the session lists pages, not operations). The
 * server refuses the calls either way; these only hide the forms and buttons.
 */

/**
 * Create, ship and deliver shipments (`createShipment`, `shipShipment`,
 * `deliverShipment`): brand admins, managers and workers, and client
 * organisations' admins and employees where their plan has the module.
 */
const SHIPPERS: readonly Role[] = ['admin', 'manager', 'worker', 'employee'];

/**
 * Cancel a draft (`cancelShipment`) and add customers (`createCustomer`):
 * brand admins and managers, and client organisations' admins.
 */
const LOGISTICS_MANAGERS: readonly Role[] = ['admin', 'manager'];

function has(roles: readonly Role[], role: Role | null | undefined): boolean {
  return role !== null && role !== undefined && roles.includes(role);
}

export function canShip(role: Role | null | undefined): boolean {
  return has(SHIPPERS, role);
}

export function canManageLogistics(role: Role | null | undefined): boolean {
  return has(LOGISTICS_MANAGERS, role);
}
