import { useState, type FormEvent } from 'react';
import { toast } from 'react-toastify/unstyled';
import { ErrorAlert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { FormActions } from '@/components/ui/form-actions';
import { SelectField, TextField } from '@/components/ui/form-field';
import {
  createOrder,
  type OrderDetail,
  type ProductChoice,
  type Supplier,
} from '../api/procurement-api';
import {
  emptyOrder,
  emptyOrderLine,
  hasErrors,
  orderBody,
  validateOrder,
  type OrderErrors,
  type OrderLineValues,
} from '../forms';

/** The form that creates a draft purchase order, line by line (admins and managers). */
export function OrderForm({
  suppliers,
  products,
  onCreated,
}: {
  suppliers: readonly Supplier[];
  products: readonly ProductChoice[];
  onCreated: (order: OrderDetail) => void;
}) {
  const [values, setValues] = useState(emptyOrder);
  const [errors, setErrors] = useState<OrderErrors>({ lines: [] });
  const [serverError, setServerError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const setLine = (i: number, change: Partial<OrderLineValues>) =>
    setValues((v) => ({
      ...v,
      lines: v.lines.map((line, j) => (j === i ? { ...line, ...change } : line)),
    }));

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = validateOrder(values);
    setErrors(found);
    if (hasErrors(found)) return;
    setBusy(true);
    const result = await createOrder(orderBody(values));
    setBusy(false);
    if (!result.ok) {
      setServerError(result.message);
      return;
    }
    setServerError(null);
    toast.success(`Purchase order ${result.data.number} created as a draft`);
    setValues(emptyOrder());
    onCreated(result.data);
  }

  if (suppliers.length === 0) {
    return <p className="muted">Add a supplier first: every purchase order names one.</p>;
  }
  const productOptions = [
    { value: '', label: 'Choose a product' },
    ...products.map((p) => ({ value: p.id, label: p.product_name })),
  ];
  return (
    <form onSubmit={onSubmit} noValidate aria-label="Create a purchase order">
      {serverError ? <ErrorAlert>{serverError}</ErrorAlert> : null}
      <div className="form-grid">
        <SelectField
          label="Supplier"
          value={values.supplier_id}
          onChange={(e) => setValues((v) => ({ ...v, supplier_id: e.target.value }))}
          error={errors.supplier_id ?? null}
          options={[
            { value: '', label: 'Choose a supplier' },
            ...suppliers.map((s) => ({ value: s.id, label: s.name })),
          ]}
        />
        <TextField
          label="Expected on"
          type="date"
          value={values.expected_on}
          onChange={(e) => setValues((v) => ({ ...v, expected_on: e.target.value }))}
          error={errors.expected_on ?? null}
        />
        <TextField
          label="Currency"
          maxLength={3}
          autoComplete="off"
          hint="Every price of the order is in it (ISO 4217, such as EUR)."
          value={values.currency}
          onChange={(e) => setValues((v) => ({ ...v, currency: e.target.value }))}
          error={errors.currency ?? null}
        />
      </div>
      {values.lines.map((line, i) => (
        <fieldset className="proc-line" key={i}>
          <legend>Line {i + 1}</legend>
          <div className="form-grid">
            <SelectField
              label="Product"
              value={line.product_id}
              onChange={(e) => setLine(i, { product_id: e.target.value })}
              error={errors.lines[i]?.product_id ?? null}
              options={productOptions}
            />
            <TextField
              label="Quantity"
              inputMode="decimal"
              autoComplete="off"
              value={line.quantity}
              onChange={(e) => setLine(i, { quantity: e.target.value })}
              error={errors.lines[i]?.quantity ?? null}
            />
            <TextField
              label="Unit price"
              inputMode="decimal"
              autoComplete="off"
              value={line.unit_price}
              onChange={(e) => setLine(i, { unit_price: e.target.value })}
              error={errors.lines[i]?.unit_price ?? null}
            />
          </div>
          {values.lines.length > 1 ? (
            <Button
              variant="ghost"
              onClick={() => setValues((v) => ({ ...v, lines: v.lines.filter((_, j) => j !== i) }))}
            >
              Remove line {i + 1}
            </Button>
          ) : null}
        </fieldset>
      ))}
      <div className="proc-actions">
        <Button
          variant="secondary"
          onClick={() => setValues((v) => ({ ...v, lines: [...v.lines, emptyOrderLine()] }))}
        >
          Add a line
        </Button>
      </div>
      <FormActions busy={busy} submitLabel="Create draft order" />
    </form>
  );
}
