import { useState } from 'react';
import { toast } from 'react-toastify/unstyled';
import { ErrorAlert } from '@/components/ui/alert';
import { FormActions } from '@/components/ui/form-actions';
import { SelectField, TextField } from '@/components/ui/form-field';
import { useForm } from '@/hooks/use-form';
import { createMove, type Move } from '../api/inventory-api';
import type { Catalogue } from '../api/use-catalogue';
import { useSubmissionKeys } from '../idempotency';
import {
  MOVE_REASONS,
  REASON_RULES,
  arrives,
  moveBody,
  reasonRule,
  validateMoveForm,
  type MoveFormValues,
} from '../move-form';
import { formatQuantity } from '../quantities';
import { locationOptions, productOptions } from './choices';
import { ConflictAlert, conflictOf, type Conflict } from './conflict';
import { LotSelect } from './lot-select';

const REASON_OPTIONS = MOVE_REASONS.map((reason) => ({
  value: reason,
  label: REASON_RULES[reason].label,
}));

/**
 * "Record a move": one line of the ledger. The fields follow the reason (a
 * receipt has no "from", a shipment no "to"; stock arriving carries its
 * unit cost). Each submission carries an `Idempotency-Key`, the same for a
 * retry of the same form, so a double click or a retry after a network
 * failure never moves stock twice. The server's refusals (`insufficient_stock`,
 * `lot_not_available`) are shown with its words: they name the lot and what
 * is available.
 */
export function MoveForm({
  catalogue,
  initial,
  lotsVersion,
  onMoved,
}: {
  catalogue: Catalogue;
  initial: MoveFormValues;
  /** Changes when a lot was registered: the lot field loads again. */
  lotsVersion: number;
  onMoved: (move: Move, values: MoveFormValues) => void;
}) {
  const form = useForm<MoveFormValues>(initial, { clearErrorOnChange: true });
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const keys = useSubmissionKeys();
  const values = form.values;
  const rule = reasonRule(values.reason);
  const costed = arrives(values);

  const onSubmit = form.onSubmit(validateMoveForm, async (sent) => {
    setConflict(null);
    const body = moveBody(sent);
    const result = await createMove(body, keys.keyFor(body));
    if (result.ok) {
      keys.done();
      toast.success(
        `${REASON_RULES[body.reason].label} of ${formatQuantity(result.data.quantity)} recorded`,
      );
      onMoved(result.data, sent);
      return null;
    }
    const found = conflictOf(result);
    if (found) {
      setConflict(found);
      return null;
    }
    return result.message;
  });

  const product = form.field('product_id');
  const lot = form.choice('lot_id');
  const from = form.field('from_location_id');
  const to = form.field('to_location_id');

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Record a move">
      {form.serverError ? <ErrorAlert>{form.serverError}</ErrorAlert> : null}
      {conflict ? <ConflictAlert conflict={conflict} /> : null}
      <div className="form-grid">
        <SelectField
          label="Kind of move"
          options={REASON_OPTIONS}
          hint={rule.hint}
          {...form.field('reason')}
        />
        <SelectField
          label="Product"
          options={productOptions(catalogue, 'Choose a product')}
          {...product}
          onChange={(e) => {
            product.onChange(e);
            lot.onChange('');
          }}
        />
        <LotSelect
          key={`${values.product_id}|${lotsVersion}`}
          productId={values.product_id}
          value={lot.value}
          onChange={lot.onChange}
          error={lot.error}
        />
        <TextField
          label="Quantity"
          inputMode="decimal"
          autoComplete="off"
          spellCheck={false}
          hint="Up to 3 decimal places, such as 12.5."
          {...form.field('quantity')}
        />
        {rule.from !== 'none' ? (
          <SelectField
            label={rule.from === 'optional' ? 'From (optional)' : 'From'}
            options={locationOptions(
              catalogue,
              rule.from === 'optional' ? 'Nowhere: stock arrives' : 'Choose a location',
            )}
            {...from}
          />
        ) : null}
        {rule.to !== 'none' ? (
          <SelectField
            label={rule.to === 'optional' ? 'To (optional)' : 'To'}
            options={locationOptions(
              catalogue,
              rule.to === 'optional' ? 'Nowhere: stock leaves' : 'Choose a location',
            )}
            {...to}
          />
        ) : null}
        {costed ? (
          <>
            <TextField
              label="Unit cost"
              inputMode="decimal"
              autoComplete="off"
              spellCheck={false}
              hint="The cost of one unit, such as 12.50; the valuation reads it."
              {...form.field('unit_cost')}
            />
            <TextField
              label="Currency"
              autoComplete="off"
              spellCheck={false}
              maxLength={3}
              hint="A three-letter code, such as EUR."
              {...form.field('currency')}
            />
          </>
        ) : null}
        <TextField
          label="Reference (optional)"
          autoComplete="off"
          hint="A delivery note, an order, a count sheet."
          {...form.field('reference')}
        />
      </div>
      <FormActions busy={form.busy} submitLabel="Record move" />
    </form>
  );
}
