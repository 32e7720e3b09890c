/**
 * Scan and quantity numbers as the page uses them (spec §9: "coerced to
 * numbers, default 0"): a number, or a numeric string, becomes that number;
 * anything else (missing, null, text, NaN) becomes 0.
 */
export function toCount(value: unknown): number {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : 0;
}

/** A coordinate, or null when the place has none (an absent or malformed lat/lon). */
export function toCoordinate(value: unknown): number | null {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
}

/** A text field, or '' when it is missing. */
export function toText(value: unknown): string {
  return typeof value === 'string'
    ? value
    : value === null || value === undefined
      ? ''
      : String(value);
}

/** The list under `value`, or an empty one when it is not a list. */
export function toList(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value)
    ? value.filter(
        (item): item is Record<string, unknown> => typeof item === 'object' && item !== null,
      )
    : [];
}
