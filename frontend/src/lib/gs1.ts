/**
 * GS1 identifiers' numbers: the mod-10 check digit that ends GTINs, GLNs and
 * SSCCs, and the GTIN rule (8, 12, 13 or 14 digits, the last the check
 * digit), the same as the server's `products::Gtin::parse`, so a wrong number
 * is refused before it is sent.
 */

/**
 * The GS1 check digit of `digits` (the number without its check digit):
 * weights 3 and 1 alternating from the right, then the amount that brings
 * the sum up to a multiple of 10.
 */
export function gs1CheckDigit(digits: string): number {
  if (!/^\d*$/.test(digits)) throw new Error('gs1CheckDigit: digits only');
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    const digit = Number(digits[digits.length - 1 - i]);
    sum += digit * (i % 2 === 0 ? 3 : 1);
  }
  return (10 - (sum % 10)) % 10;
}

/** `number` is digits only and its last one is the GS1 check digit of the rest (GTIN, GLN, SSCC). */
export function checkDigitOk(number: string): boolean {
  if (!/^\d+$/.test(number)) return false;
  return gs1CheckDigit(number.slice(0, -1)) === Number(number.slice(-1));
}

/** The lengths GS1 defines: GTIN-8, GTIN-12 (UPC-A), GTIN-13 (EAN-13), GTIN-14. */
export const GTIN_LENGTHS: readonly number[] = [8, 12, 13, 14];

export type GtinProblem = 'format' | 'check-digit';

/** Why `gtin` is not a valid GTIN, or null when it is. */
export function gtinProblem(gtin: string): GtinProblem | null {
  if (!/^\d+$/.test(gtin) || !GTIN_LENGTHS.includes(gtin.length)) return 'format';
  return checkDigitOk(gtin) ? null : 'check-digit';
}

export function isValidGtin(gtin: string): boolean {
  return gtinProblem(gtin) === null;
}

/** `digits` followed by its check digit: a valid GTIN when `digits` has 7, 11, 12 or 13 digits. */
export function withCheckDigit(digits: string): string {
  return `${digits}${gs1CheckDigit(digits)}`;
}

/** The longest batch or lot number GS1's AI 10 takes. */
export const LOT_MAX = 20;

/**
 * A batch or lot number (AI 10): 1 to 20 characters of GS1's character set
 * 82, as the server's `LotNumber` checks it.
 */
export const LOT_PATTERN = /^[!"%&'()*+,./0-9:;<=>?A-Z_a-z-]{1,20}$/;

const SET_82_CHARACTER = /[!"%&'()*+,./0-9:;<=>?A-Z_a-z-]/;

/** GS1's character set 82, in words for hints and messages. */
export const SET_82_CHARACTERS = `letters, digits and ! " % & ' ( ) * + , - . / : ; < = > ? _`;

/**
 * The characters of `text` outside GS1's character set 82, each once, for a
 * message (`“é”, spaces`); empty when there are none.
 */
export function charactersOutsideSet82(text: string): string {
  const bad = [...new Set([...text].filter((c) => !SET_82_CHARACTER.test(c)))];
  return bad.map((c) => (/\s/u.test(c) ? 'spaces' : `“${c}”`)).join(', ');
}
