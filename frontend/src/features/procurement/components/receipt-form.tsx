import { useState, type FormEvent } from 'react';
import { toast } from 'react-toastify/unstyled';
import { ErrorAlert } from '@/components/ui/alert';
import { FormActions } from '@/components/ui/form-actions';
import { SelectField, TextField } from '@/components/ui/form-field';
import { formatQuantity } from '@/lib/quantities';
import { useSubmissionKeys } from '@/lib/idempotency';
import { receiveGoods, type Location, type OrderDetail } from '../api/procurement-api';
import {
  emptyReceipt,
  hasErrors,
  receiptBody,
  validateReceipt,
  type ReceiptErrors,
  type ReceiptLineValues,
} from '../forms';

/**
 * Receives goods against a confirmed order: per line the quantity that
 * arrived, the supplier's lot number and its expiry, into one location. A
 * product that requires inspection arrives in quarantine.
 */
export function ReceiptForm({
  order,
  locations,
  onReceived,
}: {
  order: OrderDetail;
  locations: readonly Location[];
  onReceived: () => void;
}) {
  const [values, setValues] = useState(() => emptyReceipt(order));
  const [errors, setErrors] = useState<ReceiptErrors>({ lines: [] });
  const [serverError, setServerError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const keys = useSubmissionKeys();

  const setLine = (i: number, change: Partial<ReceiptLineValues>) =>
    setValues((v) => ({
      ...v,
      lines: v.lines.map((line, j) => (j === i ? { ...line, ...change } : line)),
    }));

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = validateReceipt(values, order);
    setErrors(found);
    if (hasErrors(found)) return;
    const body = receiptBody(values);
    setBusy(true);
    const result = await receiveGoods(order.id, body, keys.keyFor(body));
    setBusy(false);
    if (!result.ok) {
      setServerError(result.message);
      return;
    }
    keys.done();
    setServerError(null);
    toast.success(`Goods received on ${order.number}`);
    setValues(emptyReceipt(order));
    onReceived();
  }

  if (locations.length === 0) {
    return (
      <p className="muted">
        No locations yet: an admin or a manager adds a warehouse on the Inventory page first.
      </p>
    );
  }
  return (
    <form onSubmit={onSubmit} noValidate aria-label="Receive goods">
      {serverError ? <ErrorAlert>{serverError}</ErrorAlert> : null}
      {errors.form ? <ErrorAlert>{errors.form}</ErrorAlert> : null}
      <SelectField
        label="Into location"
        value={values.location_id}
        onChange={(e) => setValues((v) => ({ ...v, location_id: e.target.value }))}
        error={errors.location_id ?? null}
        options={[
          { value: '', label: 'Choose a location' },
          ...locations.map((l) => ({ value: l.id, label: `${l.code} — ${l.name}` })),
        ]}
      />
      {order.lines.map((line, i) => {
        const row = values.lines[i];
        if (!row) return null;
        return (
          <fieldset className="proc-line" key={line.id}>
            <legend>
              {line.product_name}: {formatQuantity(line.received_quantity)} of{' '}
              {formatQuantity(line.quantity)} received
              {line.requires_inspection ? ' (arrives in quarantine)' : ''}
            </legend>
            <div className="form-grid">
              <TextField
                label={`Quantity received, line ${line.position}`}
                inputMode="decimal"
                autoComplete="off"
                hint={`At most ${formatQuantity(line.receivable_quantity)} more.`}
                value={row.quantity}
                onChange={(e) => setLine(i, { quantity: e.target.value })}
                error={errors.lines[i]?.quantity ?? null}
              />
              <TextField
                label={`Lot number, line ${line.position}`}
                autoComplete="off"
                spellCheck={false}
                value={row.lot_number}
                onChange={(e) => setLine(i, { lot_number: e.target.value })}
                error={errors.lines[i]?.lot_number ?? null}
              />
              <TextField
                label={`Expires on (optional), line ${line.position}`}
                type="date"
                value={row.expires_on}
                onChange={(e) => setLine(i, { expires_on: e.target.value })}
                error={errors.lines[i]?.expires_on ?? null}
              />
            </div>
          </fieldset>
        );
      })}
      <FormActions busy={busy} submitLabel="Receive goods" />
    </form>
  );
}
