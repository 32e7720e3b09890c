import { initialRequestState, type RequestState } from '@/lib/slice';

/** Consumers on one day (UTC): each consumer who scanned that day counts once. */
export interface ConsumerDay {
  day: string;
  consumers: number;
  newConsumers: number;
  returningConsumers: number;
}

/**
 * Unique consumers per day for a range (`GET /api/users-data`), new against
 * returning, every number coerced (spec §9; `features/scans/audience.ts`).
 * A consumer who scans on three days counts on each of them, so the sums are
 * consumer-days, not people.
 */
export interface ConsumersData {
  from: string;
  to: string;
  newConsumers: number;
  returningConsumerDays: number;
  consumerDays: number;
  /** Every day of the range, days without consumers included (as 0). */
  byDay: ConsumerDay[];
}

/**
 * The spec's `users` slice (§3), filled by its users-data call (§7), under
 * another name: the app's `users` slice already holds the organisation's
 * accounts for the All Users page (`features/users`), which the spec also
 * calls users. The users-data call counts consumers (the people who scan the
 * brand's codes), not accounts, so its slice is named `consumers` and the
 * All Users page keeps `users` unchanged.
 */
export interface ConsumersSlice {
  consumers: RequestState<ConsumersData | null>;
}

export function initialConsumersSlice(): ConsumersSlice {
  return { consumers: initialRequestState<ConsumersData | null>(null) };
}
