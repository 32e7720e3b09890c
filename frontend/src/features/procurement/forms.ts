import {
  COST_DIGITS,
  COST_PLACES,
  QUANTITY_DIGITS,
  QUANTITY_PLACES,
  compareDecimals,
  parseCurrency,
  parseDecimal,
  quantityError,
  unitCostError,
} from '@/lib/quantities';
import type { NewBill, NewOrder, NewReceipt, OrderDetail } from './api/procurement-api';

/*
 * The procurement forms' rules, checked before sending (the server checks
 * them again): quantities and prices stay decimal strings from the field to
 * the request body, never floats.
 */

/** A lot number (GS1 AI 10): 1 to 20 characters of GS1's character set 82. */
const LOT_NUMBER = /^[!"%&'()*+,./0-9:;<=>?A-Z_a-z-]{1,20}$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

export interface OrderLineValues {
  product_id: string;
  quantity: string;
  unit_price: string;
}

export interface OrderValues {
  supplier_id: string;
  expected_on: string;
  currency: string;
  lines: OrderLineValues[];
}

export type LineErrors = Partial<Record<string, string>>;

export interface OrderErrors {
  supplier_id?: string;
  expected_on?: string;
  currency?: string;
  lines: LineErrors[];
}

export function emptyOrderLine(): OrderLineValues {
  return { product_id: '', quantity: '', unit_price: '' };
}

export function emptyOrder(): OrderValues {
  return { supplier_id: '', expected_on: '', currency: 'EUR', lines: [emptyOrderLine()] };
}

/** True when `errors` (of any of the forms here) holds a message. */
export function hasErrors(errors: { lines: LineErrors[] }): boolean {
  const { lines, ...rest } = errors;
  return (
    Object.values(rest).some(Boolean) || lines.some((line) => Object.values(line).some(Boolean))
  );
}

export function validateOrder(values: OrderValues): OrderErrors {
  const errors: OrderErrors = { lines: [] };
  if (!values.supplier_id) errors.supplier_id = 'Choose the supplier.';
  if (!DATE.test(values.expected_on)) errors.expected_on = 'Enter the date the goods are expected.';
  if (!parseCurrency(values.currency)) {
    errors.currency = 'Enter a currency code of three letters, such as EUR.';
  }
  errors.lines = values.lines.map((line) => {
    const e: LineErrors = {};
    if (!line.product_id) e.product_id = 'Choose the product.';
    const q = quantityError(line.quantity, 'the quantity to order');
    if (q) e.quantity = q;
    const p = unitCostError(line.unit_price);
    if (p) e.unit_price = p.replace('unit cost of the stock arriving', 'unit price');
    return e;
  });
  return errors;
}

/** The request body of a valid order form. */
export function orderBody(values: OrderValues): NewOrder {
  return {
    supplier_id: values.supplier_id,
    expected_on: values.expected_on,
    currency: (parseCurrency(values.currency) ?? values.currency) as NewOrder['currency'],
    lines: values.lines.map((line) => ({
      product_id: line.product_id,
      quantity: parseDecimal(line.quantity, QUANTITY_PLACES, QUANTITY_DIGITS) ?? line.quantity,
      unit_price: parseDecimal(line.unit_price, COST_PLACES, COST_DIGITS) ?? line.unit_price,
    })),
  };
}

export interface ReceiptLineValues {
  line_id: string;
  quantity: string;
  lot_number: string;
  expires_on: string;
}

export interface ReceiptValues {
  location_id: string;
  lines: ReceiptLineValues[];
}

/** One row per order line, empty: a row left without a quantity is not received. */
export function emptyReceipt(order: OrderDetail): ReceiptValues {
  return {
    location_id: '',
    lines: order.lines.map((l) => ({
      line_id: l.id,
      quantity: '',
      lot_number: '',
      expires_on: '',
    })),
  };
}

export interface ReceiptErrors {
  location_id?: string;
  form?: string;
  lines: LineErrors[];
}

export function validateReceipt(values: ReceiptValues, order: OrderDetail): ReceiptErrors {
  const errors: ReceiptErrors = { lines: [] };
  if (!values.location_id) errors.location_id = 'Choose where the goods go.';
  errors.lines = values.lines.map((row) => {
    const e: LineErrors = {};
    if (!row.quantity.trim() && !row.lot_number.trim()) return e;
    const q = quantityError(row.quantity, 'the quantity received');
    if (q) e.quantity = q;
    else {
      const line = order.lines.find((l) => l.id === row.line_id);
      const value = parseDecimal(row.quantity, QUANTITY_PLACES) ?? '0';
      if (line && compareDecimals(value, line.receivable_quantity) > 0) {
        e.quantity = `At most ${line.receivable_quantity} more may be received (5% above the order).`;
      }
    }
    if (!LOT_NUMBER.test(row.lot_number.trim())) {
      e.lot_number =
        'Enter the supplier’s lot number: 1 to 20 letters, digits or GS1 punctuation, no spaces.';
    }
    if (row.expires_on && !DATE.test(row.expires_on)) e.expires_on = 'Enter a date.';
    return e;
  });
  if (values.lines.every((row) => !row.quantity.trim() && !row.lot_number.trim())) {
    errors.form = 'Enter the quantity and lot number of at least one line.';
  }
  return errors;
}

/** The request body of a valid receipt form: the rows with a quantity. */
export function receiptBody(values: ReceiptValues): NewReceipt {
  return {
    location_id: values.location_id,
    lines: values.lines
      .filter((row) => row.quantity.trim())
      .map((row) => ({
        line_id: row.line_id,
        quantity: parseDecimal(row.quantity, QUANTITY_PLACES) ?? row.quantity,
        lot_number: row.lot_number.trim(),
        ...(row.expires_on ? { expires_on: row.expires_on } : {}),
      })),
  };
}

export interface BillLineValues {
  line_id: string;
  quantity: string;
  unit_price: string;
}

export interface BillValues {
  number: string;
  lines: BillLineValues[];
}

export interface BillErrors {
  number?: string;
  form?: string;
  lines: LineErrors[];
}

/**
 * One row per order line, filled with what is received and not billed yet
 * at the order's price: a bill that matches, to be corrected to what the
 * supplier's bill says.
 */
export function emptyBill(order: OrderDetail): BillValues {
  return {
    number: '',
    lines: order.lines.map((l) => {
      const open = parseDecimal(l.received_quantity, QUANTITY_PLACES) ?? '0';
      const billed = l.billed_quantity;
      const rest = compareDecimals(open, billed) > 0 ? subtract(open, billed) : '';
      return { line_id: l.id, quantity: rest, unit_price: l.unit_price };
    }),
  };
}

/** `a - b` for normalised non-negative decimals with `a >= b`, exactly. */
export function subtract(a: string, b: string): string {
  const places = Math.max(a.split('.')[1]?.length ?? 0, b.split('.')[1]?.length ?? 0);
  const scaled = (v: string) => {
    const [whole = '0', fraction = ''] = v.split('.');
    return BigInt(`${whole}${fraction.padEnd(places, '0')}`);
  };
  const digits = (scaled(a) - scaled(b)).toString().padStart(places + 1, '0');
  const whole = digits.slice(0, digits.length - places);
  const fraction = places ? digits.slice(digits.length - places).replace(/0+$/, '') : '';
  return fraction ? `${whole}.${fraction}` : whole;
}

export function validateBill(values: BillValues): BillErrors {
  const errors: BillErrors = { lines: [] };
  const number = values.number.trim();
  if (!number || number.length > 200) errors.number = 'Enter the supplier’s bill number.';
  errors.lines = values.lines.map((row) => {
    const e: LineErrors = {};
    if (!row.quantity.trim()) return e;
    const q = quantityError(row.quantity, 'the quantity billed');
    if (q) e.quantity = q;
    const p = unitCostError(row.unit_price);
    if (p) e.unit_price = p.replace('unit cost of the stock arriving', 'unit price billed');
    return e;
  });
  if (values.lines.every((row) => !row.quantity.trim())) {
    errors.form = 'Enter the quantity billed on at least one line.';
  }
  return errors;
}

export function billBody(orderId: string, values: BillValues): NewBill {
  return {
    purchase_order_id: orderId,
    number: values.number.trim(),
    lines: values.lines
      .filter((row) => row.quantity.trim())
      .map((row) => ({
        line_id: row.line_id,
        quantity: parseDecimal(row.quantity, QUANTITY_PLACES) ?? row.quantity,
        unit_price: parseDecimal(row.unit_price, COST_PLACES, COST_DIGITS) ?? row.unit_price,
      })),
  };
}
