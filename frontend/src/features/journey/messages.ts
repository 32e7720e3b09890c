import type { ApiFailure } from '@/lib/api/call-api';

/** The spec's messages (§8), with the answer's status. */
export const journeyMessages = {
  journeyFailed: (status: number | string) => `Failed to fetch product journey. Status: ${status}`,
  traceabilityFailed: (status: number | string) =>
    `Failed to fetch traceability. Status: ${status}`,
  recorded: (step: string) => `The ${step} step was recorded.`,
  notRecorded: 'The step could not be recorded.',
};

/** The status a failure shows: the HTTP status, or what happened when there was none. */
export function failureStatus(failure: ApiFailure): number | string {
  if (failure.kind === 'status') return failure.status;
  return failure.kind === 'network' ? 'network error' : 'unexpected answer';
}
