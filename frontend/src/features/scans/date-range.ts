/** A range of whole days, both ends included, as `YYYY-MM-DD`. */
export interface DateRange {
  from: string;
  to: string;
}

export const RANGE_PRESETS = [
  { days: 7, label: 'Last 7 days' },
  { days: 30, label: 'Last 30 days' },
  { days: 90, label: 'Last 90 days' },
] as const;

/** The server's default, and the page's: the last 30 days, today included. */
export const DEFAULT_RANGE_DAYS = 30;

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/** `YYYY-MM-DD` of a date in the browser's time zone. */
export function isoDay(date: Date): string {
  const y = date.getFullYear();
  const m = String(date.getMonth() + 1).padStart(2, '0');
  const d = String(date.getDate()).padStart(2, '0');
  return `${y}-${m}-${d}`;
}

/** The last `days` days up to and including `today`. */
export function lastDays(days: number, today: Date = new Date()): DateRange {
  const start = new Date(today.getFullYear(), today.getMonth(), today.getDate() - (days - 1));
  return { from: isoDay(start), to: isoDay(today) };
}

/** A `YYYY-MM-DD` as a UTC midnight timestamp, or NaN when it is not a real day. */
function dayValue(day: string): number {
  if (!ISO_DAY.test(day)) return Number.NaN;
  const value = Date.parse(`${day}T00:00:00Z`);
  return Number.isNaN(value) || new Date(value).toISOString().slice(0, 10) !== day
    ? Number.NaN
    : value;
}

/** Why a range cannot be asked for, or null when it can. */
export function rangeProblem(range: DateRange): string | null {
  const from = dayValue(range.from);
  const to = dayValue(range.to);
  if (Number.isNaN(from)) return 'Enter the first day of the range.';
  if (Number.isNaN(to)) return 'Enter the last day of the range.';
  if (from > to) return 'The first day must not be after the last day.';
  return null;
}

/** Every day of the range, in order (an empty list for a range that is not one). */
export function daysOf(range: DateRange, max = 3660): string[] {
  const from = dayValue(range.from);
  const to = dayValue(range.to);
  if (Number.isNaN(from) || Number.isNaN(to) || from > to) return [];
  const days: string[] = [];
  for (let t = from; t <= to && days.length < max; t += 86_400_000) {
    days.push(new Date(t).toISOString().slice(0, 10));
  }
  return days;
}

const dayFormat = new Intl.DateTimeFormat(undefined, {
  day: 'numeric',
  month: 'short',
  timeZone: 'UTC',
});
const longDayFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });

/** "Nov 1" for a chart's axis. */
export function shortDay(day: string): string {
  const value = dayValue(day);
  return Number.isNaN(value) ? day : dayFormat.format(value);
}

/** "Nov 1, 2026". */
export function longDay(day: string): string {
  const value = dayValue(day);
  return Number.isNaN(value) ? day : longDayFormat.format(value);
}
