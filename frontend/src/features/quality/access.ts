import type { Role } from '@/lib/api/types';

/**
 * Who may change a lot's status and raise or move nonconformances: the roles
 * with `changeLotStatus`, `createNonconformance` and `updateNonconformance`
 * `call` rows in `tenants/access/policy.csv` (admins and managers; workers
 * and client employees record inspections and read). The page's `view` rows
 * cover every member, so this rule is mirrored here to hide those actions.
 * The server refuses the calls either way.
 */
const QUALITY_EDITORS: readonly Role[] = ['admin', 'manager'];

export function canManageQuality(role: Role | null | undefined): boolean {
  return role !== null && role !== undefined && QUALITY_EDITORS.includes(role);
}
