/** `platform_admin` → `Platform admin`. */
export function roleLabel(role: string): string {
  const words = role.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const dateTimeFormat = new Intl.DateTimeFormat(undefined, {
  dateStyle: 'medium',
  timeStyle: 'short',
});
const numberFormat = new Intl.NumberFormat();

/** A date for people; the raw value when it is not a date. */
export function formatDate(value: string | null | undefined): string {
  if (!value) return '—';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : dateFormat.format(date);
}

/**
 * A moment (`created_at`, `updated_at`) for people, with its time: jobs or
 * updates of one day differ by it. `—` when there is none; the raw value when
 * it is not a date.
 */
export function formatDateTime(value: string | null | undefined): string {
  if (!value) return '—';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : dateTimeFormat.format(date);
}

export function formatNumber(value: number): string {
  return numberFormat.format(value);
}

const BYTE_UNITS = ['KB', 'MB', 'GB'] as const;
const sizeFormat = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });

/**
 * A file's size for people: `812 bytes`, `14.2 KB`, `3.1 MB` (1 KB = 1,024
 * bytes, as the server counts its limits).
 */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${formatNumber(bytes)} ${bytes === 1 ? 'byte' : 'bytes'}`;
  let value = bytes;
  let unit = -1;
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${sizeFormat.format(value)} ${BYTE_UNITS[unit]}`;
}
