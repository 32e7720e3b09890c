import type { FieldErrors } from '@/hooks/use-form';
import { formatNumber } from '@/lib/format';
import { LOT_MAX, LOT_PATTERN, SET_82_CHARACTERS, charactersOutsideSet82 } from '@/lib/gs1';
import { isDay } from '@/lib/validation';
import type { NewCodeJob } from './api/codes-api';

/**
 * The "Generate codes" form's rules, the same as the server's
 * (`backend/src/codes`): quantity 1 to 10,000,000; an optional lot number of
 * 1 to 20 characters of GS1's character set 82; optional manufacturing and
 * expiry dates of that lot, expiry after manufacture.
 */

export type CodeJobFormValues = {
  quantity: string;
  lot_number: string;
  manufactured_on: string;
  expires_on: string;
};

export const QUANTITY_MAX = 10_000_000;

export const codeJobFormHints = {
  /** What the plan still allows (a job holds at most QUANTITY_MAX codes). */
  quantity: (remaining?: number) => {
    if (remaining === undefined) return `1 to ${formatNumber(QUANTITY_MAX)} codes.`;
    if (remaining <= 0) return 'No codes left in your plan: ask your platform administrator.';
    if (remaining <= QUANTITY_MAX) return `Up to ${formatNumber(remaining)} codes left.`;
    return `Up to ${formatNumber(QUANTITY_MAX)} codes in one job; ${formatNumber(remaining)} left in your plan.`;
  },
  lot: `Optional. Up to ${LOT_MAX} ${SET_82_CHARACTERS} (no spaces).`,
} as const;

export function emptyCodeJobForm(): CodeJobFormValues {
  return { quantity: '', lot_number: '', manufactured_on: '', expires_on: '' };
}

/** Digits, either plain or grouped by threes (`120000`, `120,000`, `120 000`, `120.000`). */
const PLAIN = /^\d+$/;
const GROUPED = /^\d{1,3}(?:([,.' \u00a0\u202f])\d{3})(?:\1\d{3})*$/;

/**
 * The whole number `text` spells, or null. Group separators are accepted
 * only between groups of three digits, so `1.5` is not read as 15.
 */
export function parseQuantity(text: string): number | null {
  const trimmed = text.trim();
  if (!PLAIN.test(trimmed) && !GROUPED.test(trimmed)) return null;
  const value = Number(trimmed.replace(/\D/g, ''));
  return Number.isSafeInteger(value) ? value : null;
}

/** The quantity as the field shows it once left (`120000` → `120,000`); other text unchanged. */
export function formatQuantityInput(text: string): string {
  const value = parseQuantity(text);
  return value === null ? text : formatNumber(value);
}

/** The errors in `values`, field by field. */
export function validateCodeJobForm(values: CodeJobFormValues): FieldErrors<CodeJobFormValues> {
  const errors: FieldErrors<CodeJobFormValues> = {};

  const text = values.quantity.trim();
  const quantity = parseQuantity(text);
  if (!text) errors.quantity = 'Enter how many codes to generate.';
  else if (quantity === null) errors.quantity = 'Enter a whole number, such as 120,000.';
  else if (quantity < 1) errors.quantity = 'Generate at least 1 code.';
  else if (quantity > QUANTITY_MAX)
    errors.quantity = `Generate at most ${formatNumber(QUANTITY_MAX)} codes in one job.`;

  const lot = values.lot_number.trim();
  const dated = values.manufactured_on !== '' || values.expires_on !== '';
  if (!lot) {
    if (dated) errors.lot_number = 'Enter the lot number the dates belong to.';
  } else if (!LOT_PATTERN.test(lot)) {
    const bad = charactersOutsideSet82(lot);
    if (bad) errors.lot_number = `A lot number cannot hold ${bad}. Use ${SET_82_CHARACTERS}.`;
    else errors.lot_number = `Use at most ${LOT_MAX} characters.`;
  }

  if (values.manufactured_on && !isDay(values.manufactured_on))
    errors.manufactured_on = 'Enter a date, or leave it empty.';
  if (values.expires_on && !isDay(values.expires_on))
    errors.expires_on = 'Enter a date, or leave it empty.';
  else if (
    values.expires_on &&
    values.manufactured_on &&
    isDay(values.manufactured_on) &&
    values.expires_on <= values.manufactured_on
  )
    errors.expires_on = 'The expiry date must be after the manufacturing date.';

  return errors;
}

/** The body of `createCodeJob` for valid `values`; empty optional fields are left out. */
export function newCodeJobBody(productId: string, values: CodeJobFormValues): NewCodeJob {
  const lot = values.lot_number.trim();
  return {
    product_id: productId,
    quantity: parseQuantity(values.quantity) ?? 0,
    ...(lot
      ? {
          lot: {
            number: lot,
            ...(values.manufactured_on ? { manufactured_on: values.manufactured_on } : {}),
            ...(values.expires_on ? { expires_on: values.expires_on } : {}),
          },
        }
      : {}),
  };
}

/**
 * The form field a server message is about: the server names it
 * (`lot.number must be …`, `lot.expires_on must be after …`, `quantity must
 * be …`), or speaks of the lot (`Lot L-1 of this product already exists with
 * other dates …`). Anything else (the code quota, an archived product) is
 * shown above the form.
 */
export function fieldOfServerMessage(message: string): keyof CodeJobFormValues | null {
  if (/\blot\.expires_on\b/.test(message)) return 'expires_on';
  if (/\blot\.manufactured_on\b/.test(message)) return 'manufactured_on';
  if (/\blot\.number\b/.test(message) || /^Lot\b/.test(message)) return 'lot_number';
  if (/\bquantity\b/.test(message)) return 'quantity';
  return null;
}
