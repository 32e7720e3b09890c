/**
 * Expiry warnings for lots (issue 22): a lot is expired the day after its
 * expiry day (the server's rule: `expires_on < current_date`; it is still
 * usable on the day itself), and "expires soon" from 30 days before to the
 * day itself. Days are calendar days
 * (`YYYY-MM-DD`, as the API writes `expires_on`), compared as the person's
 * own calendar reads them, never through a time zone shift.
 */

/** How many days ahead an expiry is worth a warning. */
export const EXPIRY_WARNING_DAYS = 30;

export type ExpiryState =
  /** No expiry date. */
  | { kind: 'none' }
  /** The expiry day has passed. */
  | { kind: 'expired'; days: number }
  /** It expires within `EXPIRY_WARNING_DAYS` days. */
  | { kind: 'soon'; days: number }
  | { kind: 'ok'; days: number };

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The number of the day `YYYY-MM-DD` counted from 1970-01-01, or null. */
function dayNumber(day: string): number | null {
  const match = DAY.exec(day);
  if (!match) return null;
  return Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) / 86_400_000;
}

/** Today as the person's calendar has it, `YYYY-MM-DD`. */
export function today(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/**
 * Where a lot expiring on `expiresOn` stands on `on` (today): `days` is how
 * many days are left (0 on the expiry day, negative after it).
 */
export function expiryState(expiresOn: string | null | undefined, on: string): ExpiryState {
  if (!expiresOn) return { kind: 'none' };
  const end = dayNumber(expiresOn);
  const now = dayNumber(on);
  if (end === null || now === null) return { kind: 'none' };
  const days = end - now;
  if (days < 0) return { kind: 'expired', days };
  if (days <= EXPIRY_WARNING_DAYS) return { kind: 'soon', days };
  return { kind: 'ok', days };
}

/** The warning a person reads for an expiry state, or null when there is none. */
export function expiryWarning(state: ExpiryState): string | null {
  switch (state.kind) {
    case 'expired':
      return `Expired ${-state.days} ${-state.days === 1 ? 'day' : 'days'} ago`;
    case 'soon':
      if (state.days === 0) return 'Expires today';
      return `Expires in ${state.days} ${state.days === 1 ? 'day' : 'days'}`;
    default:
      return null;
  }
}

const dayFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });

/** A calendar day for people (`2026-03-01` → `Mar 1, 2026`); `—` for none. */
export function formatDay(day: string | null | undefined): string {
  if (!day) return '—';
  const n = dayNumber(day);
  return n === null ? day : dayFormat.format(new Date(n * 86_400_000));
}
