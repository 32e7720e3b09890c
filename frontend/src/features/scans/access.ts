import type { Role } from '@/lib/api/types';

/**
 * Who may change the suspicious-scan rules: the roles with an
 * `updateScanSettings` `call` row in `tenants/access/policy.csv` (organisation
 * admins). Everyone on the dashboard may read them, and the page's `view`
 * row cannot say who may change them, so the rule is mirrored here, as
 * `features/codes/access.ts` does. The server refuses the call either way.
 */
const RULE_EDITORS: readonly Role[] = ['admin'];

export function canChangeScanRules(role: Role | null | undefined): boolean {
  return role !== null && role !== undefined && RULE_EDITORS.includes(role);
}

/**
 * Who may hide a review or show it again: the roles with an `updateReview`
 * `call` row in the policy (organisation admins and managers). Workers read
 * the reviews (`listReviews`) but see no hide button; the server refuses the
 * call either way.
 */
const REVIEW_MODERATORS: readonly Role[] = ['admin', 'manager'];

export function canModerateReviews(role: Role | null | undefined): boolean {
  return role !== null && role !== undefined && REVIEW_MODERATORS.includes(role);
}
