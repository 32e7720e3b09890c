import type { FieldErrors } from '@/hooks/use-form';
import type { MoveBody } from './api/inventory-api';
import {
  COST_PLACES,
  QUANTITY_PLACES,
  parseCurrency,
  parseDecimal,
  quantityError,
  unitCostError,
} from './quantities';

/**
 * The move form's rules (issue 22, `POST /api/stock-moves`): a move without
 * a "from" location is stock arriving, one without a "to" location is stock
 * leaving; stock arriving (a receipt, a count found higher, a return in)
 * carries its unit cost and currency, which the valuation reads, and no
 * other move does. Which ends each reason has is below; the server has the
 * last word and its reason is shown as it words it.
 */

export const MOVE_REASONS = [
  'receipt',
  'transfer',
  'adjustment',
  'consumption',
  'shipment',
  'scrap',
  'return',
] as const satisfies readonly MoveBody['reason'][];

/** A reason of the contract; `REASON_RULES` has one rule for each. */
export type MoveReason = MoveBody['reason'];

type End = 'required' | 'optional' | 'none';

interface ReasonRule {
  label: string;
  /** What the reason means, under the field. */
  hint: string;
  from: End;
  to: End;
}

export const REASON_RULES: Record<MoveReason, ReasonRule> = {
  receipt: {
    label: 'Receipt',
    hint: 'Stock arrives into a location, at its unit cost.',
    from: 'none',
    to: 'required',
  },
  transfer: {
    label: 'Transfer',
    hint: 'Stock moves from one location to another.',
    from: 'required',
    to: 'required',
  },
  adjustment: {
    label: 'Adjustment',
    hint: 'A count differs: take stock out of a location, or put it into one (at its unit cost).',
    from: 'optional',
    to: 'optional',
  },
  consumption: {
    label: 'Consumption',
    hint: 'Stock is used up (in production, say) and leaves its location.',
    from: 'required',
    to: 'none',
  },
  shipment: {
    label: 'Shipment',
    hint: 'Stock leaves to a customer.',
    from: 'required',
    to: 'none',
  },
  scrap: {
    label: 'Scrap',
    hint: 'Stock is destroyed, or moved to a scrap location.',
    from: 'required',
    to: 'optional',
  },
  return: {
    label: 'Return',
    hint: 'Stock comes back into a location (at its unit cost), or goes back out of one.',
    from: 'optional',
    to: 'optional',
  },
};

export type MoveFormValues = {
  reason: string;
  product_id: string;
  lot_id: string;
  quantity: string;
  from_location_id: string;
  to_location_id: string;
  unit_cost: string;
  currency: string;
  reference: string;
};

export const REFERENCE_MAX = 200;

export function emptyMoveForm(currency = 'EUR'): MoveFormValues {
  return {
    reason: 'receipt',
    product_id: '',
    lot_id: '',
    quantity: '',
    from_location_id: '',
    to_location_id: '',
    unit_cost: '',
    currency,
    reference: '',
  };
}

function isReason(value: string): value is MoveReason {
  return (MOVE_REASONS as readonly string[]).includes(value);
}

/** The rule of the chosen reason (a receipt's until one is chosen). */
export function reasonRule(reason: string): ReasonRule {
  return REASON_RULES[isReason(reason) ? reason : 'receipt'];
}

/** The "from" and "to" locations the move is sent with (an end the reason lacks: none). */
function ends(values: MoveFormValues): { from: string; to: string } {
  const rule = reasonRule(values.reason);
  return {
    from: rule.from === 'none' ? '' : values.from_location_id,
    to: rule.to === 'none' ? '' : values.to_location_id,
  };
}

/** True when the move brings stock in from outside (no "from"): it carries a unit cost. */
export function arrives(values: MoveFormValues): boolean {
  const { from, to } = ends(values);
  return !from && (to !== '' || reasonRule(values.reason).to === 'required');
}

/** The errors in `values`, field by field. */
export function validateMoveForm(values: MoveFormValues): FieldErrors<MoveFormValues> {
  const errors: FieldErrors<MoveFormValues> = {};
  if (!isReason(values.reason)) errors.reason = 'Choose what kind of move this is.';
  const rule = reasonRule(values.reason);
  if (!values.product_id) errors.product_id = 'Choose the product.';
  if (!values.lot_id) errors.lot_id = 'Choose the lot.';
  const quantity = quantityError(values.quantity, 'the quantity to move');
  if (quantity) errors.quantity = quantity;

  const { from, to } = ends(values);
  if (rule.from === 'required' && !from) errors.from_location_id = 'Choose where the stock is.';
  if (rule.to === 'required' && !to) errors.to_location_id = 'Choose where the stock goes.';
  if (rule.from === 'optional' && rule.to === 'optional' && !from && !to) {
    errors.from_location_id = 'Choose a location the stock leaves, or one it arrives in.';
  }
  if (from && to && from === to) errors.to_location_id = 'Choose a different location.';

  if (arrives(values)) {
    const cost = unitCostError(values.unit_cost);
    if (cost) errors.unit_cost = cost;
    if (parseCurrency(values.currency) === null) {
      errors.currency = 'Enter a three-letter currency code, such as EUR.';
    }
  }
  if (values.reference.trim().length > REFERENCE_MAX) {
    errors.reference = `Use at most ${REFERENCE_MAX} characters.`;
  }
  return errors;
}

/** What `POST /api/stock-moves` is sent for valid `values` (check them first). */
export function moveBody(values: MoveFormValues): MoveBody {
  const reason = isReason(values.reason) ? values.reason : 'receipt';
  const { from, to } = ends(values);
  const body: MoveBody = {
    product_id: values.product_id,
    lot_id: values.lot_id,
    quantity: parseDecimal(values.quantity, QUANTITY_PLACES) ?? values.quantity.trim(),
    reason,
  };
  if (from) body.from_location_id = from;
  if (to) body.to_location_id = to;
  if (arrives(values)) {
    body.unit_cost = parseDecimal(values.unit_cost, COST_PLACES) ?? values.unit_cost.trim();
    // The server checks the code against ISO 4217 and names a wrong one.
    body.currency = (parseCurrency(values.currency) ??
      values.currency.trim()) as MoveBody['currency'];
  }
  const reference = values.reference.trim();
  if (reference) body.reference = reference;
  return body;
}
