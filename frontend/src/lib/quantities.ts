/**
 * Quantities and money as the inventory API writes them: decimal strings
 * ("12.500", "3.25"), never floats (a float cannot hold 0.1 exactly, and a
 * stock ledger must add up). Input is checked and normalised here as text;
 * display goes through `Intl.NumberFormat`, which formats a numeric string
 * exactly.
 */

/** A quantity has at most this many decimal places (the server's rule). */
export const QUANTITY_PLACES = 3;
/** A unit cost has at most this many decimal places. */
export const COST_PLACES = 6;
/** At most this many digits before the point: a quantity's, a unit cost's. */
export const QUANTITY_DIGITS = 9;
export const COST_DIGITS = 12;

const DECIMAL = /^(\d+)(?:\.(\d*))?$|^\.(\d+)$/;

/**
 * The decimal `text` spells, normalised (`007.50` → `7.50`, `.5` → `0.5`,
 * `3.` → `3`), or null when it is not a plain non-negative decimal with at
 * most `places` decimal places. A decimal comma is read as a point when it is
 * the only separator (`2,5` → `2.5`); group separators are not accepted, so
 * `1,000` is refused instead of being read as one.
 */
export function parseDecimal(text: string, places: number, digits = 18): string | null {
  let trimmed = text.trim();
  if (/^\d*,\d+$/.test(trimmed) && !/^\d{1,3},\d{3}$/.test(trimmed)) {
    trimmed = trimmed.replace(',', '.');
  }
  const match = DECIMAL.exec(trimmed);
  if (!match) return null;
  const whole = (match[1] ?? '0').replace(/^0+(?=\d)/, '');
  const fraction = match[2] ?? match[3] ?? '';
  if (fraction.length > places || whole.length > digits) return null;
  return fraction ? `${whole}.${fraction}` : whole;
}

/** True when the normalised decimal `value` is zero (`0`, `0.000`). */
export function isZero(value: string): boolean {
  return /^0(?:\.0*)?$/.test(value);
}

/**
 * The error in a quantity field, or null. `what` names the quantity in the
 * message ("Enter the quantity to move.").
 */
export function quantityError(text: string, what = 'the quantity'): string | null {
  if (!text.trim()) return `Enter ${what}.`;
  const value = parseDecimal(text, QUANTITY_PLACES, QUANTITY_DIGITS);
  if (value === null) {
    if (/^\s*-/.test(text))
      return 'Enter a positive quantity; a correction is a move the other way.';
    if (parseDecimal(text, QUANTITY_PLACES) !== null) return 'Enter a smaller quantity.';
    return `Enter a number with at most ${QUANTITY_PLACES} decimal places, such as 12.5.`;
  }
  if (isZero(value)) return 'Enter a quantity above zero.';
  return null;
}

/** The error in a unit cost field (zero is a cost: a free sample), or null. */
export function unitCostError(text: string): string | null {
  if (!text.trim()) return 'Enter the unit cost of the stock arriving.';
  const value = parseDecimal(text, COST_PLACES, COST_DIGITS);
  if (value === null) {
    return `Enter an amount with at most ${COST_PLACES} decimal places, such as 12.50.`;
  }
  return null;
}

/** An ISO 4217 currency code: three letters. */
export const CURRENCY = /^[A-Z]{3}$/;

/** The currency code `text` spells (`eur` → `EUR`), or null. */
export function parseCurrency(text: string): string | null {
  const code = text.trim().toUpperCase();
  return CURRENCY.test(code) ? code : null;
}

const quantityFormat = new Intl.NumberFormat(undefined, {
  maximumFractionDigits: QUANTITY_PLACES,
});

/**
 * A quantity for people: grouped, without trailing zeros (`1234.500` →
 * `1,234.5`). Text that is not a decimal is shown as it is.
 */
export function formatQuantity(value: string | null | undefined): string {
  if (value === null || value === undefined || value === '') return '—';
  if (!/^-?\d+(?:\.\d+)?$/.test(value)) return value;
  return quantityFormat.format(value as Intl.StringNumericLiteral);
}

/** A quantity with its unit of measure, when there is one (`12.5 kg`). */
export function formatQuantityWithUnit(value: string, unit: string | null | undefined): string {
  const formatted = formatQuantity(value);
  return unit && unit !== 'each' ? `${formatted} ${unit}` : formatted;
}

const moneyFormats = new Map<string, Intl.NumberFormat>();

/**
 * An amount of money for people, in its currency (`1234.5`, `EUR` →
 * `€1,234.50`): exact, with more than two places when the amount has them.
 * Text that is not an amount, or a code that is not a currency code, is
 * shown as it is.
 */
export function formatMoney(amount: string, currency: string): string {
  if (!/^-?\d+(?:\.\d+)?$/.test(amount) || !CURRENCY.test(currency)) {
    return `${amount} ${currency}`;
  }
  let format = moneyFormats.get(currency);
  if (!format) {
    // Any three letters are a well-formed code: Intl writes an unknown one as it is.
    format = new Intl.NumberFormat(undefined, {
      style: 'currency',
      currency,
      minimumFractionDigits: 2,
      maximumFractionDigits: COST_PLACES,
    });
    moneyFormats.set(currency, format);
  }
  return format.format(amount as Intl.StringNumericLiteral);
}

/**
 * Compares two normalised non-negative decimals exactly (as text, never as
 * floats): negative when `a < b`, 0 when equal, positive when `a > b`.
 */
export function compareDecimals(a: string, b: string): number {
  const [aWhole = '0', aFraction = ''] = a.split('.');
  const [bWhole = '0', bFraction = ''] = b.split('.');
  const wholeA = aWhole.replace(/^0+(?=\d)/, '');
  const wholeB = bWhole.replace(/^0+(?=\d)/, '');
  if (wholeA.length !== wholeB.length) return wholeA.length - wholeB.length;
  if (wholeA !== wholeB) return wholeA < wholeB ? -1 : 1;
  const places = Math.max(aFraction.length, bFraction.length);
  const fa = aFraction.padEnd(places, '0');
  const fb = bFraction.padEnd(places, '0');
  return fa === fb ? 0 : fa < fb ? -1 : 1;
}

/**
 * The exact sum of decimal strings (`["12.50", "0.125"]` → `"12.625"`),
 * through integers scaled to the most places any of them has: never a float.
 */
export function sumDecimals(values: readonly string[]): string {
  const places = Math.max(0, ...values.map((v) => v.split('.')[1]?.length ?? 0));
  const scaled = (v: string) => {
    const negative = v.startsWith('-');
    const [whole = '0', fraction = ''] = v.replace(/^-/, '').split('.');
    const n = BigInt(`${whole}${fraction.padEnd(places, '0')}`);
    return negative ? -n : n;
  };
  const total = values.reduce((sum, v) => sum + scaled(v), 0n);
  const negative = total < 0n;
  const digits = (negative ? -total : total).toString().padStart(places + 1, '0');
  const whole = digits.slice(0, digits.length - places);
  const fraction = places ? `.${digits.slice(digits.length - places)}` : '';
  return `${negative ? '-' : ''}${whole}${fraction}`;
}
