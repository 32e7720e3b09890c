import {
  QUANTITY_DIGITS,
  QUANTITY_PLACES,
  compareDecimals,
  parseCurrency,
  parseDecimal,
  quantityError,
} from '@/lib/quantities';
import type { NewPriceList, PriceList, QuoteQuery, Tiering } from './api/pricing-api';

/*
 * The pricing forms' rules, checked before sending (the server checks them
 * again, ADR 0021): quantities and prices stay decimal strings from the field
 * to the request body, never floats.
 */

/** A unit price: at most 6 decimal places and 9 digits before the point. */
export const PRICE_PLACES = 6;
export const PRICE_DIGITS = 9;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const GROUP = /^[a-z0-9][a-z0-9_-]{0,39}$/;

export interface BreakValues {
  min_quantity: string;
  unit_price: string;
}

export interface ItemValues {
  product_id: string;
  breaks: BreakValues[];
}

export interface ListValues {
  name: string;
  currency: string;
  valid_from: string;
  valid_to: string;
  customer_group: string;
  tiering: Tiering;
  items: ItemValues[];
}

export type BreakErrors = Partial<Record<keyof BreakValues, string>>;

export interface ItemErrors {
  product_id?: string;
  breaks: BreakErrors[];
}

export interface ListErrors {
  name?: string;
  currency?: string;
  valid_from?: string;
  valid_to?: string;
  customer_group?: string;
  items: ItemErrors[];
}

export function emptyBreak(): BreakValues {
  return { min_quantity: '', unit_price: '' };
}

export function emptyItem(): ItemValues {
  return { product_id: '', breaks: [{ min_quantity: '1', unit_price: '' }] };
}

export function emptyList(): ListValues {
  return {
    name: '',
    currency: 'EUR',
    valid_from: '',
    valid_to: '',
    customer_group: '',
    tiering: 'volume',
    items: [emptyItem()],
  };
}

/** A stored list as form values, to replace it. */
export function listValues(list: PriceList): ListValues {
  return {
    name: list.name,
    currency: list.currency,
    valid_from: list.valid_from,
    valid_to: list.valid_to ?? '',
    customer_group: list.customer_group ?? '',
    tiering: list.tiering,
    items: list.items.map((item) => ({
      product_id: item.product_id,
      breaks: item.breaks.map((b) => ({ min_quantity: b.min_quantity, unit_price: b.unit_price })),
    })),
  };
}

/** True when `errors` holds a message. */
export function hasErrors(errors: ListErrors): boolean {
  const { items, ...rest } = errors;
  return (
    Object.values(rest).some(Boolean) ||
    items.some(
      (item) => Boolean(item.product_id) || item.breaks.some((b) => Object.values(b).some(Boolean)),
    )
  );
}

function priceError(text: string): string | null {
  if (!text.trim()) return 'Enter the unit price.';
  if (parseDecimal(text, PRICE_PLACES, PRICE_DIGITS) === null) {
    return `Enter an amount of 0 or more with at most ${PRICE_PLACES} decimal places, such as 12.50.`;
  }
  return null;
}

export function validateList(values: ListValues): ListErrors {
  const errors: ListErrors = { items: [] };
  const name = values.name.trim();
  if (!name) errors.name = 'Enter a name.';
  else if (name.length > 200) errors.name = 'Use at most 200 characters.';
  if (!parseCurrency(values.currency)) {
    errors.currency = 'Enter a currency code of three letters, such as EUR.';
  }
  if (!DATE.test(values.valid_from)) errors.valid_from = 'Enter the first day the list applies.';
  if (values.valid_to) {
    if (!DATE.test(values.valid_to)) errors.valid_to = 'Enter a date, or leave it empty.';
    else if (DATE.test(values.valid_from) && values.valid_to < values.valid_from) {
      errors.valid_to = 'The last day cannot be before the first.';
    }
  }
  const group = values.customer_group.trim();
  if (group && !GROUP.test(group)) {
    errors.customer_group =
      'Use 1 to 40 lower-case letters, digits, _ or -, or leave it empty for the default list.';
  }
  const seen = new Set<string>();
  errors.items = values.items.map((item) => {
    const e: ItemErrors = { breaks: [] };
    if (!item.product_id) e.product_id = 'Choose the product.';
    else if (seen.has(item.product_id)) e.product_id = 'This product is in the list already.';
    seen.add(item.product_id);
    let previous: string | null = null;
    e.breaks = item.breaks.map((b) => {
      const be: BreakErrors = {};
      const q = quantityError(b.min_quantity, 'the quantity this price starts at');
      if (q) be.min_quantity = q;
      else {
        const min = parseDecimal(b.min_quantity, QUANTITY_PLACES, QUANTITY_DIGITS) ?? '0';
        if (values.tiering === 'graduated' && /\.\d*[1-9]/.test(min)) {
          be.min_quantity = 'Graduated breaks are unit numbers: enter a whole number.';
        } else if (previous !== null && compareDecimals(min, previous) <= 0) {
          be.min_quantity = `Start above the break before it (${previous}).`;
        }
        previous = min;
      }
      const p = priceError(b.unit_price);
      if (p) be.unit_price = p;
      return be;
    });
    return e;
  });
  return errors;
}

/** The request body of a valid list form. */
export function listBody(values: ListValues): NewPriceList {
  const group = values.customer_group.trim();
  return {
    name: values.name.trim(),
    currency: (parseCurrency(values.currency) ?? values.currency) as NewPriceList['currency'],
    valid_from: values.valid_from,
    ...(values.valid_to ? { valid_to: values.valid_to } : {}),
    ...(group ? { customer_group: group } : {}),
    tiering: values.tiering,
    items: values.items.map((item) => ({
      product_id: item.product_id,
      breaks: item.breaks.map((b) => ({
        min_quantity:
          parseDecimal(b.min_quantity, QUANTITY_PLACES, QUANTITY_DIGITS) ?? b.min_quantity,
        unit_price: parseDecimal(b.unit_price, PRICE_PLACES, PRICE_DIGITS) ?? b.unit_price,
      })),
    })),
  };
}

export interface QuoteValues {
  product_id: string;
  quantity: string;
  customer_id: string;
  on: string;
}

export type QuoteErrors = Partial<Record<keyof QuoteValues, string>>;

export function emptyQuote(): QuoteValues {
  return { product_id: '', quantity: '1', customer_id: '', on: '' };
}

export function validateQuote(values: QuoteValues): QuoteErrors {
  const errors: QuoteErrors = {};
  if (!values.product_id) errors.product_id = 'Choose the product.';
  const q = quantityError(values.quantity, 'the quantity to price');
  if (q) errors.quantity = q;
  if (values.on && !DATE.test(values.on)) errors.on = 'Enter a date, or leave it empty for today.';
  return errors;
}

/** The query of a valid quote form: no customer is the default list, no day is today. */
export function quoteQuery(values: QuoteValues): QuoteQuery {
  return {
    product_id: values.product_id,
    quantity: parseDecimal(values.quantity, QUANTITY_PLACES, QUANTITY_DIGITS) ?? values.quantity,
    ...(values.customer_id ? { customer_id: values.customer_id } : {}),
    ...(values.on ? { on: values.on } : {}),
  };
}

/** An amount or price with its currency, exactly as the server wrote it (`12.50 EUR`). */
export function money(amount: string, currency: string): string {
  return `${amount} ${currency}`;
}

/** Who a list is for. */
export function scopeLabel(list: Pick<PriceList, 'customer_group'>): string {
  return list.customer_group ? `Group ${list.customer_group}` : 'Default (every customer)';
}

/** The days a list applies, both included. */
export function validityLabel(list: Pick<PriceList, 'valid_from' | 'valid_to'>): string {
  return list.valid_to ? `${list.valid_from} – ${list.valid_to}` : `from ${list.valid_from}`;
}
