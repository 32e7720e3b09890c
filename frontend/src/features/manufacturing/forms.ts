/** A quantity as the server takes it: above 0, at most 9 digits and 3 decimal places. */
const QUANTITY = /^(?:0|[1-9][0-9]{0,8})(?:\.[0-9]{1,3})?$/;

/** What is wrong with a quantity typed in, or null. */
export function quantityProblem(text: string): string | null {
  const value = text.trim();
  if (!value) return 'Enter a quantity.';
  if (!QUANTITY.test(value)) return 'A number above 0 with at most 3 decimal places, such as 12.5.';
  if (Number(value) === 0) return 'Enter a quantity above 0.';
  return null;
}

/** What is wrong with a code count typed in (empty: none asked), or null. */
export function codesProblem(text: string): string | null {
  const value = text.trim();
  if (!value) return null;
  if (!/^[1-9][0-9]{0,7}$/.test(value) || Number(value) > 10_000_000)
    return 'A whole number from 1 to 10,000,000, or leave it empty.';
  return null;
}
