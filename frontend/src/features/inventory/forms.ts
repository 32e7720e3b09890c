import type { FieldErrors } from '@/hooks/use-form';
import type { NewLocation } from './api/inventory-api';
import { LOT_MAX, LOT_PATTERN, SET_82_CHARACTERS, charactersOutsideSet82 } from '@/lib/gs1';
import { isDay } from '@/lib/validation';
import {
  QUANTITY_DIGITS,
  QUANTITY_PLACES,
  compareDecimals,
  parseDecimal,
  quantityError,
} from './quantities';

/**
 * The rules of the inventory page's smaller forms (locations, lots,
 * reservations, reorder rules), the same as the server's; its reason for a
 * refusal is shown as it words it.
 */

// ---- locations --------------------------------------------------------------

export const LOCATION_KINDS = [
  'warehouse',
  'zone',
  'bin',
  'quarantine',
  'scrap',
] as const satisfies readonly NewLocation['kind'][];
/** A kind of the contract; `LOCATION_KIND_LABELS` has a label for each. */
export type LocationKind = NewLocation['kind'];

export const LOCATION_KIND_LABELS: Record<LocationKind, string> = {
  warehouse: 'Warehouse',
  zone: 'Zone',
  bin: 'Bin',
  quarantine: 'Quarantine',
  scrap: 'Scrap',
};

export const LOCATION_CODE_MAX = 40;
/** What the server takes as a location code. */
const LOCATION_CODE = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,39}$/;
export const LOCATION_CODE_HINT =
  'Letters, digits and . _ / - (starting with a letter or digit), up to 40.';
export const LOCATION_NAME_MAX = 200;

export type LocationFormValues = { code: string; name: string; kind: string; parent_id: string };

export function emptyLocationForm(): LocationFormValues {
  return { code: '', name: '', kind: 'warehouse', parent_id: '' };
}

export function validateLocationForm(values: LocationFormValues): FieldErrors<LocationFormValues> {
  const errors: FieldErrors<LocationFormValues> = {};
  const code = values.code.trim();
  if (!code) errors.code = 'Enter a code, such as WH1 or A-01.';
  else if (/\s/.test(code)) errors.code = 'A code has no spaces.';
  else if (code.length > LOCATION_CODE_MAX) {
    errors.code = `Use at most ${LOCATION_CODE_MAX} characters.`;
  } else if (!LOCATION_CODE.test(code)) errors.code = LOCATION_CODE_HINT;
  const name = values.name.trim();
  if (!name) errors.name = 'Enter a name.';
  else if (name.length > LOCATION_NAME_MAX) {
    errors.name = `Use at most ${LOCATION_NAME_MAX} characters.`;
  }
  if (!(LOCATION_KINDS as readonly string[]).includes(values.kind)) {
    errors.kind = 'Choose the kind of location.';
  }
  return errors;
}

// ---- lots -------------------------------------------------------------------

export type LotFormValues = {
  product_id: string;
  number: string;
  manufactured_on: string;
  expires_on: string;
};

export function emptyLotForm(productId = ''): LotFormValues {
  return { product_id: productId, number: '', manufactured_on: '', expires_on: '' };
}

export function validateLotForm(values: LotFormValues): FieldErrors<LotFormValues> {
  const errors: FieldErrors<LotFormValues> = {};
  if (!values.product_id) errors.product_id = 'Choose the product.';
  const number = values.number.trim();
  if (!number) errors.number = 'Enter the lot number.';
  else if (!LOT_PATTERN.test(number)) {
    const bad = charactersOutsideSet82(number);
    errors.number = bad
      ? `A lot number cannot hold ${bad}. Use ${SET_82_CHARACTERS}.`
      : `Use at most ${LOT_MAX} characters.`;
  }
  if (values.manufactured_on && !isDay(values.manufactured_on)) {
    errors.manufactured_on = 'Enter a date.';
  }
  if (values.expires_on && !isDay(values.expires_on)) errors.expires_on = 'Enter a date.';
  if (
    !errors.manufactured_on &&
    !errors.expires_on &&
    values.manufactured_on &&
    values.expires_on &&
    values.expires_on <= values.manufactured_on
  ) {
    errors.expires_on = 'The expiry date must come after the manufacturing date.';
  }
  return errors;
}

// ---- reservations -----------------------------------------------------------

export const RESERVATION_REFERENCE_MAX = 200;

export type ReservationFormValues = {
  product_id: string;
  quantity: string;
  location_id: string;
  reference: string;
};

export function emptyReservationForm(): ReservationFormValues {
  return { product_id: '', quantity: '', location_id: '', reference: '' };
}

export function validateReservationForm(
  values: ReservationFormValues,
): FieldErrors<ReservationFormValues> {
  const errors: FieldErrors<ReservationFormValues> = {};
  if (!values.product_id) errors.product_id = 'Choose the product.';
  const quantity = quantityError(values.quantity, 'the quantity to reserve');
  if (quantity) errors.quantity = quantity;
  const reference = values.reference.trim();
  if (!reference)
    errors.reference = 'Enter what the stock is reserved for, such as an order number.';
  else if (reference.length > RESERVATION_REFERENCE_MAX) {
    errors.reference = `Use at most ${RESERVATION_REFERENCE_MAX} characters.`;
  }
  return errors;
}

// ---- reorder rules ----------------------------------------------------------

export type ReorderFormValues = {
  product_id: string;
  location_id: string;
  min_quantity: string;
  max_quantity: string;
};

export function emptyReorderForm(): ReorderFormValues {
  return { product_id: '', location_id: '', min_quantity: '', max_quantity: '' };
}

export function validateReorderForm(values: ReorderFormValues): FieldErrors<ReorderFormValues> {
  const errors: FieldErrors<ReorderFormValues> = {};
  if (!values.product_id) errors.product_id = 'Choose the product.';
  if (!values.location_id) errors.location_id = 'Choose the location the rule watches.';
  const min = parseDecimal(values.min_quantity, QUANTITY_PLACES, QUANTITY_DIGITS);
  const max = parseDecimal(values.max_quantity, QUANTITY_PLACES, QUANTITY_DIGITS);
  if (!values.min_quantity.trim()) errors.min_quantity = 'Enter the minimum (0 or more).';
  else if (min === null) {
    errors.min_quantity = `Enter a number with at most ${QUANTITY_PLACES} decimal places.`;
  }
  const maxError = quantityError(values.max_quantity, 'the quantity to fill up to');
  if (maxError) errors.max_quantity = maxError;
  else if (min !== null && max !== null && compareDecimals(max, min) < 0) {
    errors.max_quantity = 'The maximum cannot be below the minimum.';
  }
  return errors;
}
