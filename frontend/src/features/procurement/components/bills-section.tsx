import { useState, type FormEvent } from 'react';
import { toast } from 'react-toastify/unstyled';
import { ErrorAlert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { FormActions } from '@/components/ui/form-actions';
import { TextField } from '@/components/ui/form-field';
import { formatMoney, formatQuantity } from '@/lib/quantities';
import {
  approveBill,
  createBill,
  type Bill,
  type Mismatch,
  type OrderDetail,
} from '../api/procurement-api';
import {
  billBody,
  emptyBill,
  hasErrors,
  validateBill,
  type BillErrors,
  type BillLineValues,
} from '../forms';

function mismatchText(m: Mismatch, order: OrderDetail): string {
  const line = order.lines.find((l) => l.id === m.line_id);
  const what = line ? `Line ${line.position} (${line.product_name})` : 'A line';
  return m.reason === 'quantity_not_received'
    ? `${what}: billed ${formatQuantity(m.billed)}, but only ${formatQuantity(m.expected)} received and not billed before.`
    : `${what}: billed at ${formatMoney(m.billed, order.currency)}, ordered at ${formatMoney(m.expected, order.currency)}.`;
}

/** Approves one bill; a mismatched bill needs an admin and a reason. */
function Approve({
  bill,
  isAdmin,
  onApproved,
}: {
  bill: Bill;
  isAdmin: boolean;
  onApproved: () => void;
}) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const mismatched = bill.match === 'mismatch';
  if (mismatched && !isAdmin) {
    return <p className="muted">It does not match: only an admin may approve it, with a reason.</p>;
  }
  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (mismatched && !reason.trim()) {
      setError('Give the reason you approve a bill that does not match.');
      return;
    }
    setBusy(true);
    const result = await approveBill(bill.id, reason.trim() ? { reason: reason.trim() } : {});
    setBusy(false);
    if (!result.ok) {
      setError(result.message);
      return;
    }
    toast.success(`Bill ${bill.number} approved`);
    onApproved();
  }
  return (
    <form onSubmit={onSubmit} noValidate aria-label={`Approve bill ${bill.number}`}>
      {mismatched ? (
        <TextField
          label={`Reason to approve bill ${bill.number} anyway`}
          value={reason}
          onChange={(e) => {
            setReason(e.target.value);
            setError(null);
          }}
          error={error}
        />
      ) : error ? (
        <ErrorAlert>{error}</ErrorAlert>
      ) : null}
      <Button type="submit" busy={busy} variant={mismatched ? 'danger' : 'primary'}>
        Approve bill {bill.number}
      </Button>
    </form>
  );
}

/** Records a supplier's bill against the order, line by line. */
function BillForm({ order, onRecorded }: { order: OrderDetail; onRecorded: () => void }) {
  const [values, setValues] = useState(() => emptyBill(order));
  const [errors, setErrors] = useState<BillErrors>({ lines: [] });
  const [serverError, setServerError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const setLine = (i: number, change: Partial<BillLineValues>) =>
    setValues((v) => ({
      ...v,
      lines: v.lines.map((line, j) => (j === i ? { ...line, ...change } : line)),
    }));
  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = validateBill(values);
    setErrors(found);
    if (hasErrors(found)) return;
    setBusy(true);
    const result = await createBill(billBody(order.id, values));
    setBusy(false);
    if (!result.ok) {
      setServerError(result.message);
      return;
    }
    setServerError(null);
    if (result.data.match === 'matched') toast.success(`Bill ${result.data.number} matches`);
    else toast.warning(`Bill ${result.data.number} does not match: see the differences`);
    onRecorded();
  }
  return (
    <form onSubmit={onSubmit} noValidate aria-label="Record a supplier bill">
      {serverError ? <ErrorAlert>{serverError}</ErrorAlert> : null}
      {errors.form ? <ErrorAlert>{errors.form}</ErrorAlert> : null}
      <TextField
        label="Bill number"
        autoComplete="off"
        hint="The supplier’s own number: unique per supplier."
        value={values.number}
        onChange={(e) => setValues((v) => ({ ...v, number: e.target.value }))}
        error={errors.number ?? null}
      />
      {order.lines.map((line, i) => {
        const row = values.lines[i];
        if (!row) return null;
        return (
          <fieldset className="proc-line" key={line.id}>
            <legend>
              {line.product_name}: {formatQuantity(line.received_quantity)} received,{' '}
              {formatQuantity(line.billed_quantity)} billed
            </legend>
            <div className="form-grid">
              <TextField
                label={`Quantity billed, line ${line.position}`}
                inputMode="decimal"
                autoComplete="off"
                hint="Leave it empty when the bill does not charge this line."
                value={row.quantity}
                onChange={(e) => setLine(i, { quantity: e.target.value })}
                error={errors.lines[i]?.quantity ?? null}
              />
              <TextField
                label={`Unit price billed, line ${line.position}`}
                inputMode="decimal"
                autoComplete="off"
                value={row.unit_price}
                onChange={(e) => setLine(i, { unit_price: e.target.value })}
                error={errors.lines[i]?.unit_price ?? null}
              />
            </div>
          </fieldset>
        );
      })}
      <FormActions busy={busy} submitLabel="Record bill" />
    </form>
  );
}

/**
 * The order's bills with their three-way match; admins and managers record
 * bills and approve those that match, admins also those that do not (with a
 * reason).
 */
export function BillsSection({
  order,
  canBuy,
  isAdmin,
  onChanged,
}: {
  order: OrderDetail;
  canBuy: boolean;
  isAdmin: boolean;
  onChanged: () => void;
}) {
  return (
    <section aria-label="Supplier bills">
      <h3>Supplier bills</h3>
      {order.bills.length === 0 ? <p className="muted">No bills yet.</p> : null}
      <ul className="proc-list">
        {order.bills.map((bill) => (
          <li key={bill.id} className="proc-item">
            <p>
              <strong>{bill.number}</strong> · {formatMoney(bill.total, bill.currency)} ·{' '}
              <span
                className={`badge ${bill.match === 'matched' ? 'badge--success' : 'badge--danger'}`}
              >
                {bill.match === 'matched' ? 'Matched' : 'Mismatch'}
              </span>{' '}
              <span className="badge">{bill.status === 'approved' ? 'Approved' : 'Pending'}</span>
            </p>
            {bill.mismatches.length > 0 ? (
              <ul>
                {bill.mismatches.map((m, i) => (
                  <li key={i}>{mismatchText(m, order)}</li>
                ))}
              </ul>
            ) : null}
            {bill.approval_reason ? (
              <p className="muted">Approved because: {bill.approval_reason}</p>
            ) : null}
            {canBuy && bill.status === 'pending' ? (
              <Approve bill={bill} isAdmin={isAdmin} onApproved={onChanged} />
            ) : null}
          </li>
        ))}
      </ul>
      {canBuy ? (
        <>
          <h4>Record a bill</h4>
          <BillForm key={order.bills.length} order={order} onRecorded={onChanged} />
        </>
      ) : null}
    </section>
  );
}
