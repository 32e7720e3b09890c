import type { Role, SessionUser } from '@/lib/api/types';

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

/**
 * Whether the signed-in user's organisation has scan analytics: the `call`
 * rows of the scan operations (`brandScans`, `scanAnalytics`,
 * `getScanSettings`, `sessionsData`, `usersData`, `listReviews`) are brands'
 * (`brand:*`) in the policy, so a client organisation's dashboard does not
 * call them (the server would refuse every one); platform admins choose a
 * brand instead. The organisation's kind comes from the server's session.
 */
export function hasScanAnalytics(user: Pick<SessionUser, 'organisationKind'> | null | undefined) {
  return user?.organisationKind === 'brand';
}
