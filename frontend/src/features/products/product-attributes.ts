import { isDay } from '@/lib/validation';
import type { Product } from './api/products-api';

/**
 * Typed attributes (net weight: number 500; vegan: yes; best before: a date),
 * with the server's rules: at most 50, a name of 1–60 characters once trimmed
 * without control characters, names unique whatever the case, a text value
 * of at most 500 characters, finite numbers, dates as YYYY-MM-DD.
 */

export type Attribute = Product['attributes'][number];
export type AttributeType = Attribute['type'];

export const ATTRIBUTES_MAX = 50;
export const ATTRIBUTE_NAME_MAX = 60;
export const ATTRIBUTE_TEXT_MAX = 500;

export const ATTRIBUTE_TYPES: readonly { value: AttributeType; label: string }[] = [
  { value: 'text', label: 'Text' },
  { value: 'number', label: 'Number' },
  { value: 'boolean', label: 'Yes/No' },
  { value: 'date', label: 'Date' },
];

/** One row of the attributes editor: every value as its input holds it. */
export interface AttributeRow {
  /** Stable React key; never sent. */
  key: string;
  name: string;
  type: AttributeType;
  /** Text, number or date as typed; `'true'` / `'false'` for Yes/No. */
  value: string;
}

export interface AttributeRowErrors {
  name?: string;
  value?: string;
}

export interface AttributeErrors {
  /** About the list as a whole (too many). */
  list?: string;
  /** By row key. */
  rows: Record<string, AttributeRowErrors>;
}

let nextKey = 0;
function newKey(): string {
  nextKey += 1;
  return `attr-${nextKey}`;
}

export function emptyAttributeRow(): AttributeRow {
  return { key: newKey(), name: '', type: 'text', value: '' };
}

/** The value a row holds after switching to `type` (kept when it still fits). */
export function changeAttributeType(row: AttributeRow, type: AttributeType): AttributeRow {
  if (type === row.type) return row;
  const value =
    type === 'boolean'
      ? 'false'
      : type === 'text' && row.type !== 'boolean'
        ? row.value
        : type === 'number' &&
            row.type === 'text' &&
            row.value.trim() !== '' &&
            isFinite(Number(row.value))
          ? row.value.trim()
          : '';
  return { ...row, type, value };
}

export function attributeRows(attributes: readonly Attribute[]): AttributeRow[] {
  return attributes.map((a) => ({
    key: newKey(),
    name: a.name,
    type: a.type,
    value: String(a.value),
  }));
}

function length(text: string): number {
  return [...text].length;
}

const CONTROL = /\p{Cc}/u;

/** The errors of the rows; none found means `list` is absent and `rows` is empty. */
export function validateAttributes(rows: readonly AttributeRow[]): AttributeErrors {
  const errors: AttributeErrors = { rows: {} };
  if (rows.length > ATTRIBUTES_MAX)
    errors.list = `Use at most ${ATTRIBUTES_MAX} attributes: remove ${rows.length - ATTRIBUTES_MAX}.`;
  const seen = new Set<string>();
  for (const row of rows) {
    const found: AttributeRowErrors = {};
    const name = row.name.trim();
    if (!name) found.name = 'Enter the attribute’s name.';
    else if (length(name) > ATTRIBUTE_NAME_MAX)
      found.name = `Use at most ${ATTRIBUTE_NAME_MAX} characters.`;
    else if (CONTROL.test(name)) found.name = 'Remove control characters.';
    else if (seen.has(name.toLowerCase())) found.name = 'Another attribute already has this name.';
    if (name) seen.add(name.toLowerCase());

    if (row.type === 'text' && length(row.value) > ATTRIBUTE_TEXT_MAX)
      found.value = `Use at most ${ATTRIBUTE_TEXT_MAX} characters.`;
    else if (row.type === 'number' && (row.value.trim() === '' || !isFinite(Number(row.value))))
      found.value = 'Enter a number.';
    else if (row.type === 'date' && !isDay(row.value)) found.value = 'Enter a date.';

    if (found.name || found.value) errors.rows[row.key] = found;
  }
  return errors;
}

export function hasAttributeErrors(errors: AttributeErrors): boolean {
  return Boolean(errors.list) || Object.keys(errors.rows).length > 0;
}

/** The typed list the server takes, for valid `rows`. */
export function attributesBody(rows: readonly AttributeRow[]): Attribute[] {
  return rows.map((row): Attribute => {
    const name = row.name.trim();
    switch (row.type) {
      case 'number':
        return { type: 'number', name, value: Number(row.value) };
      case 'boolean':
        return { type: 'boolean', name, value: row.value === 'true' };
      case 'date':
        return { type: 'date', name, value: row.value };
      default:
        return { type: 'text', name, value: row.value };
    }
  });
}

export function sameAttributes(a: readonly Attribute[], b: readonly Attribute[]): boolean {
  return (
    a.length === b.length &&
    a.every((x, i) => {
      const y = b[i]!;
      return x.type === y.type && x.name === y.name && x.value === y.value;
    })
  );
}

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

/** An attribute's value for people: Yes/No, a date in the local style, numbers as given. */
export function attributeText(attribute: Attribute): string {
  switch (attribute.type) {
    case 'boolean':
      return attribute.value ? 'Yes' : 'No';
    case 'date': {
      if (!isDay(attribute.value)) return attribute.value;
      const [y, m, d] = attribute.value.split('-').map(Number) as [number, number, number];
      return dateFormat.format(new Date(y, m - 1, d));
    }
    case 'number':
      return String(attribute.value);
    default:
      return attribute.value;
  }
}
