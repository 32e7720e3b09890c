/**
 * GTINs (GS1 Global Trade Item Numbers): 8, 12, 13 or 14 digits whose last
 * digit is the GS1 mod-10 check digit. The same rule as the server's
 * `products::Gtin::parse`, so a wrong number is refused before it is sent.
 */

/** The lengths GS1 defines: GTIN-8, GTIN-12 (UPC-A), GTIN-13 (EAN-13), GTIN-14. */
export const GTIN_LENGTHS: readonly number[] = [8, 12, 13, 14];

/**
 * The GS1 check digit of `digits` (the number without its check digit):
 * weights 3 and 1 alternating from the right, then the amount that brings
 * the sum up to a multiple of 10.
 */
export function gtinCheckDigit(digits: string): number {
  if (!/^\d*$/.test(digits)) throw new Error('gtinCheckDigit: digits only');
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    const digit = Number(digits[digits.length - 1 - i]);
    sum += digit * (i % 2 === 0 ? 3 : 1);
  }
  return (10 - (sum % 10)) % 10;
}

export type GtinProblem = 'format' | 'check-digit';

/** Why `gtin` is not a valid GTIN, or null when it is. */
export function gtinProblem(gtin: string): GtinProblem | null {
  if (!/^\d+$/.test(gtin) || !GTIN_LENGTHS.includes(gtin.length)) return 'format';
  const body = gtin.slice(0, -1);
  return gtinCheckDigit(body) === Number(gtin.slice(-1)) ? null : 'check-digit';
}

export function isValidGtin(gtin: string): boolean {
  return gtinProblem(gtin) === null;
}

/** `digits` followed by its check digit: a valid GTIN when `digits` has 7, 11, 12 or 13 digits. */
export function withCheckDigit(digits: string): string {
  return `${digits}${gtinCheckDigit(digits)}`;
}
