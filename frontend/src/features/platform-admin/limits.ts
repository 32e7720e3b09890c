import { formatNumber } from '@/lib/format';

/** A tenant's plan limits, as the server names them. */
export type LimitKey = 'userLimit' | 'productLimit' | 'codeQuota';

export const LIMIT_KEYS: readonly LimitKey[] = ['userLimit', 'productLimit', 'codeQuota'];

/** What the server accepts for each limit (the contract's `TenantLimits` and `NewTenant`). */
export const LIMITS: Record<LimitKey, { label: string; min: number; max: number }> = {
  userLimit: { label: 'User limit', min: 1, max: 100_000 },
  productLimit: { label: 'Product limit', min: 0, max: 1_000_000 },
  codeQuota: { label: 'Code quota', min: 0, max: 10_000_000_000 },
};

/** What the server sets when onboarding leaves a limit out. */
export const LIMIT_DEFAULTS = { productLimit: 100, codeQuota: 1_000_000 } as const;
export type OptionalLimitKey = keyof typeof LIMIT_DEFAULTS;

/** Shown with the Edit limits form. */
export const LOWERING_NOTE =
  'Lowering a limit below current use blocks new additions; nothing is deleted.';

/** Digits only: no sign, decimals, exponent or separators. */
const WHOLE_NUMBER = /^\d+$/;

/** `1 to 100,000` */
export function limitRange(key: LimitKey): string {
  return `${formatNumber(LIMITS[key].min)} to ${formatNumber(LIMITS[key].max)}`;
}

/** What to enter when `raw` is not an accepted value. */
export function limitMessage(key: LimitKey): string {
  return `Enter a whole number from ${limitRange(key)}.`;
}

/** The limit typed in `raw`, or null when it is not a whole number in range. */
export function parseLimit(key: LimitKey, raw: string): number | null {
  const text = raw.trim();
  if (!WHOLE_NUMBER.test(text)) return null;
  const value = Number(text);
  const { min, max } = LIMITS[key];
  return value >= min && value <= max ? value : null;
}

/** The field's error, or null; an empty optional field is fine (the server's default). */
export function limitError(key: LimitKey, raw: string, { optional = false } = {}): string | null {
  if (optional && raw.trim() === '') return null;
  return parseLimit(key, raw) === null ? limitMessage(key) : null;
}

export type LimitValues = Record<LimitKey, string>;
export type LimitErrors = Partial<Record<LimitKey, string>>;

/** The errors of the Edit limits form: every limit is required. */
export function validateLimits(values: LimitValues): LimitErrors {
  const found: LimitErrors = {};
  for (const key of LIMIT_KEYS) {
    const error = limitError(key, values[key]);
    if (error) found[key] = error;
  }
  return found;
}

/** The form's values for a tenant's current limits (digits, no separators). */
export function limitValues(current: Record<LimitKey, number>): LimitValues {
  return {
    userLimit: String(current.userLimit),
    productLimit: String(current.productLimit),
    codeQuota: String(current.codeQuota),
  };
}

/**
 * The limits that differ from `current` (values already validated), for a
 * PATCH that leaves the others as they are; null when nothing changed.
 */
export function changedLimits(
  current: Record<LimitKey, number>,
  values: LimitValues,
): Partial<Record<LimitKey, number>> | null {
  const changes: Partial<Record<LimitKey, number>> = {};
  for (const key of LIMIT_KEYS) {
    const value = parseLimit(key, values[key]);
    if (value !== null && value !== current[key]) changes[key] = value;
  }
  return Object.keys(changes).length > 0 ? changes : null;
}
