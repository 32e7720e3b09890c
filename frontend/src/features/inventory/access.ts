import type { Role } from '@/lib/api/types';

/**
 * Who may do what on `/inventory`, mirrored from the `call` rows of
 * `tenants/access/policy.csv` (the session lists pages, not operations, and a
 * worker's `/inventory` view row cannot say which of its forms they may use).
 * The server refuses the calls either way; these only hide the forms.
 */

/**
 * Record moves and reservations, and release them (`createStockMove`,
 * `createStockReservation`, `releaseStockReservation`): brand admins,
 * managers and workers, and client organisations' admins and employees
 * where their plan has the module.
 */
const STOCK_RECORDERS: readonly Role[] = ['admin', 'manager', 'worker', 'employee'];

/** Add locations and set reorder rules (`createLocation`, `setReorderRule`): admins and managers. */
const INVENTORY_MANAGERS: readonly Role[] = ['admin', 'manager'];

/**
 * Register lots (`createLot`, the lot register's): brand admins and managers
 * and client organisations' admins; workers and client employees pick the
 * lots they have.
 */
const LOT_CREATORS: readonly Role[] = ['admin', 'manager'];

function has(roles: readonly Role[], role: Role | null | undefined): boolean {
  return role !== null && role !== undefined && roles.includes(role);
}

export function canRecordStock(role: Role | null | undefined): boolean {
  return has(STOCK_RECORDERS, role);
}

export function canManageInventory(role: Role | null | undefined): boolean {
  return has(INVENTORY_MANAGERS, role);
}

export function canCreateLots(role: Role | null | undefined): boolean {
  return has(LOT_CREATORS, role);
}
