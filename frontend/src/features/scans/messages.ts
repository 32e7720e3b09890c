import type { ApiFailure } from '@/lib/api/call-api';

/** Every text the scan analytics show for an outcome (spec §8), in one place. */
export const scanMessages = {
  /** The server's 400 when a platform admin names no company (spec §8: shown as it is). */
  companyRequired: 'company_id is required',
  brandScansFailed: 'Failed to fetch brand scans',
  analyticsFailed: 'The scan analytics could not be loaded.',
  settingsNotLoaded: 'The suspicious-scan rules could not be loaded.',
  historyFailed: 'The code’s scan history could not be loaded.',
  settingsNotSaved: 'The suspicious-scan rules could not be saved. Please try again.',
  settingsSaved: 'Suspicious-scan rules saved.',
  sessionsFailed: 'The consumer sessions could not be loaded.',
  consumersFailed: 'The consumers could not be loaded.',
} as const;

/** The reviews' texts (spec §8 for the load's failures, word for word). */
export const reviewMessages = {
  /** No CSRF token in the session: the call is not made (spec §8). */
  csrfMissing: 'CSRF token is missing',
  hidden: 'Review hidden. Scan pages no longer show it.',
  shown: 'Review shown again on scan pages.',
  changeFailed: 'The review could not be changed. Please try again.',
} as const;

/**
 * The message of a failed reviews load (spec §8): 'Failed to fetch reviews.
 * Status: {status}' with the server's status; with no answer at all (no
 * status to name), the app's network message.
 */
export function reviewsFailureMessage(failure: ApiFailure): string {
  if (failure.kind === 'network') return failure.message;
  return `Failed to fetch reviews. Status: ${failure.kind === 'status' ? failure.status : 'unknown'}`;
}

/**
 * The message of a failed brand-scans load (spec §8): a 400 saying
 * 'company_id is required' shows that message; anything else (another
 * status, no answer) 'Failed to fetch brand scans'.
 */
export function brandScansFailureMessage(failure: ApiFailure): string {
  if (
    failure.kind === 'status' &&
    failure.status === 400 &&
    (failure.body?.error === scanMessages.companyRequired ||
      failure.body?.code === 'company_id_required')
  ) {
    return scanMessages.companyRequired;
  }
  return scanMessages.brandScansFailed;
}
