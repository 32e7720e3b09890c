import type { NewShipment } from './api/logistics-api';

/** A line of the shipment form, as typed. */
export interface LineValues {
  product_id: string;
  quantity: string;
  /** Empty: the server picks first expiry first out. */
  lot_id: string;
  /** 1 to 99, as typed. */
  package: string;
}

export interface ShipmentFormValues {
  customer_id: string;
  from_location_id: string;
  lines: LineValues[];
}

export interface ShipmentFormErrors {
  customer_id?: string;
  from_location_id?: string;
  /** Per line, by index: the fields' messages. */
  lines: Partial<Record<keyof LineValues, string>>[];
}

export const MAX_LINES = 100;

export function emptyLine(): LineValues {
  return { product_id: '', quantity: '', lot_id: '', package: '1' };
}

export function emptyShipmentForm(): ShipmentFormValues {
  return { customer_id: '', from_location_id: '', lines: [emptyLine()] };
}

/**
 * A quantity as the server takes it: digits, at most 9 before the point and
 * 3 after it, more than 0; a decimal comma is read as a point. Null when it
 * is not one.
 */
export function normaliseQuantity(text: string): string | null {
  const trimmed = text.trim().replace(/^(\d*),(\d+)$/, '$1.$2');
  const match = /^(\d{1,9})(?:\.(\d{1,3}))?$/.exec(trimmed);
  if (!match) return null;
  const whole = (match[1] ?? '').replace(/^0+(?=\d)/, '');
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (/^0*$/.test(whole) && fraction === '') return null;
  return fraction ? `${whole}.${fraction}` : whole;
}

export function validateShipmentForm(values: ShipmentFormValues): ShipmentFormErrors {
  const errors: ShipmentFormErrors = { lines: [] };
  if (!values.customer_id) errors.customer_id = 'Choose the customer.';
  if (!values.from_location_id) errors.from_location_id = 'Choose where the stock leaves from.';
  values.lines.forEach((line) => {
    const e: Partial<Record<keyof LineValues, string>> = {};
    errors.lines.push(e);
    if (!line.product_id) e.product_id = 'Choose a product.';
    if (!line.quantity.trim()) e.quantity = 'Enter a quantity.';
    else if (normaliseQuantity(line.quantity) === null)
      e.quantity = 'Enter a number above 0 with at most 3 decimal places, such as 12 or 2.5.';
    const pkg = Number(line.package);
    if (!/^\d{1,2}$/.test(line.package.trim()) || pkg < 1 || pkg > 99)
      e.package = 'Enter a package number from 1 to 99.';
  });
  return errors;
}

export function hasErrors(errors: ShipmentFormErrors): boolean {
  return (
    Boolean(errors.customer_id || errors.from_location_id) ||
    errors.lines.some((l) => Object.values(l).some(Boolean))
  );
}

/** The request of a checked form. */
export function shipmentBody(values: ShipmentFormValues): NewShipment {
  return {
    customer_id: values.customer_id,
    from_location_id: values.from_location_id,
    lines: values.lines.map((line) => {
      const body: NewShipment['lines'][number] = {
        product_id: line.product_id,
        quantity: normaliseQuantity(line.quantity) ?? line.quantity.trim(),
        package: Number(line.package),
      };
      if (line.lot_id) body.lot_id = line.lot_id;
      return body;
    }),
  };
}
