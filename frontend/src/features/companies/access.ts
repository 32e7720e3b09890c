import type { Role } from '@/lib/api/types';

/**
 * Who may add a company: the roles with a `createCompany` `call` row in
 * `tenants/access/policy.csv` (client A's admins; its employees only read).
 * The page's `view` row covers both, so this one rule is mirrored here to
 * hide the form. The server refuses the call either way.
 */
export function canAddCompanies(role: Role | null | undefined): boolean {
  return role === 'admin';
}
