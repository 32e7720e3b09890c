import type { Role } from '@/lib/api/types';

/**
 * Who may record packing, shipping and receiving: the roles with
 * `recordEpcisStep` `call` rows in `tenants/access/policy.csv` (admins and
 * managers; a client's admins). Every brand role, and a client's admins and
 * employees, read the journey and traceability on the product page; the page's `view` row cannot say that workers may not record,
 * so this one rule is mirrored here, as `features/codes/access.ts` does. The
 * server refuses the call either way.
 */
const STEP_RECORDERS: readonly Role[] = ['admin', 'manager'];

export function canRecordSteps(role: Role | null | undefined): boolean {
  return role !== null && role !== undefined && STEP_RECORDERS.includes(role);
}
