import { initialRequestState, type RequestState } from '@/lib/slice';

/** Consumer sessions on one day (UTC). */
export interface SessionDay {
  day: string;
  sessions: number;
  sessionScans: number;
}

/**
 * Consumer sessions on the scan pages for a range (`GET /api/sessions-data`),
 * every number coerced (spec §9; `features/scans/audience.ts` reads the answer).
 * A session is a consumer's scans, told apart by the anonymous first-party id
 * the scan page keeps, until 30 minutes pass without a scan.
 */
export interface SessionsData {
  from: string;
  to: string;
  sessions: number;
  sessionScans: number;
  averageScansPerSession: number;
  /** Every day of the range, days without sessions included (as 0). */
  byDay: SessionDay[];
}

export interface SessionsSlice {
  /** The spec's `sessions` slice (§3), filled by the sessions-data call (§7); null until a load succeeded. */
  sessions: RequestState<SessionsData | null>;
}

export function initialSessionsSlice(): SessionsSlice {
  return { sessions: initialRequestState<SessionsData | null>(null) };
}
