import { daysOf, type DateRange } from './date-range';
import { toCount, toList, toText } from './numbers';
import type { ConsumerDay, ConsumersData } from './store/consumers-slice';
import type { SessionDay, SessionsData } from './store/sessions-slice';

export type { ConsumerDay, ConsumersData, SessionDay, SessionsData };

/** The answer's `data` as an object (an empty one when it is not). */
function record(value: unknown): Record<string, unknown> {
  return (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
}

/** Every day of the range in order, each from the answer or `empty(day)`. */
function everyDay<D extends { day: string }>(
  range: DateRange,
  reported: D[],
  empty: (day: string) => D,
): D[] {
  const byDay = new Map(reported.map((d) => [d.day, d]));
  const days = daysOf(range);
  return days.length
    ? days.map((day) => byDay.get(day) ?? empty(day))
    : [...byDay.values()].sort((a, b) => a.day.localeCompare(b.day));
}

function rangeOf(raw: Record<string, unknown>, asked: DateRange): DateRange {
  return { from: toText(raw.from) || asked.from, to: toText(raw.to) || asked.to };
}

/** Reads `GET /api/sessions-data`'s `data` without trusting it; `asked` fills a missing range. */
export function toSessionsData(data: unknown, asked: DateRange): SessionsData {
  const raw = record(data);
  const range = rangeOf(raw, asked);
  const sessions = toCount(raw.sessions);
  const sessionScans = toCount(raw.session_scans);
  const byDay = everyDay<SessionDay>(
    range,
    toList(raw.by_day).map((d) => ({
      day: toText(d.day).slice(0, 10),
      sessions: toCount(d.sessions),
      sessionScans: toCount(d.session_scans),
    })),
    (day) => ({ day, sessions: 0, sessionScans: 0 }),
  );
  return {
    ...range,
    sessions,
    sessionScans,
    averageScansPerSession:
      raw.average_scans_per_session === undefined && sessions > 0
        ? sessionScans / sessions
        : toCount(raw.average_scans_per_session),
    byDay,
  };
}

/** Reads `GET /api/users-data`'s `data` without trusting it; `asked` fills a missing range. */
export function toConsumersData(data: unknown, asked: DateRange): ConsumersData {
  const raw = record(data);
  const range = rangeOf(raw, asked);
  return {
    ...range,
    newConsumers: toCount(raw.new_consumers),
    returningConsumerDays: toCount(raw.returning_consumer_days),
    consumerDays: toCount(raw.consumer_days),
    byDay: everyDay<ConsumerDay>(
      range,
      toList(raw.by_day).map((d) => ({
        day: toText(d.day).slice(0, 10),
        consumers: toCount(d.consumers),
        newConsumers: toCount(d.new_consumers),
        returningConsumers: toCount(d.returning_consumers),
      })),
      (day) => ({ day, consumers: 0, newConsumers: 0, returningConsumers: 0 }),
    ),
  };
}

const averageFormat = new Intl.NumberFormat(undefined, {
  minimumFractionDigits: 1,
  maximumFractionDigits: 1,
});

/** "2.5": an average with one decimal. */
export function formatAverage(value: number): string {
  return averageFormat.format(value);
}
