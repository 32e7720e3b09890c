import { useEffect, useState, type FormEvent } from 'react';
import { toast } from 'react-toastify/unstyled';
import { ErrorAlert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { FormActions } from '@/components/ui/form-actions';
import { SelectField, TextField } from '@/components/ui/form-field';
import {
  createShipment,
  fetchLots,
  type Customer,
  type LocationChoice,
  type LotChoice,
  type ProductChoice,
  type Shipment,
} from '../api/logistics-api';
import {
  MAX_LINES,
  emptyLine,
  emptyShipmentForm,
  hasErrors,
  shipmentBody,
  validateShipmentForm,
  type LineValues,
  type ShipmentFormErrors,
  type ShipmentFormValues,
} from '../shipment-form';

/** The product's released lots, loaded when a product is chosen. */
function useLots(productId: string) {
  const [lots, setLots] = useState<LotChoice[]>([]);
  useEffect(() => {
    let active = true;
    if (!productId) return;
    void fetchLots(productId).then((result) => {
      if (active) setLots(result.ok ? result.data : []);
    });
    return () => {
      active = false;
    };
  }, [productId]);
  return productId ? lots : [];
}

function LineFields({
  index,
  line,
  errors,
  products,
  onChange,
  onRemove,
}: {
  index: number;
  line: LineValues;
  errors: Partial<Record<keyof LineValues, string>>;
  products: ProductChoice[];
  onChange: (line: LineValues) => void;
  onRemove: (() => void) | null;
}) {
  const lots = useLots(line.product_id);
  const n = index + 1;
  return (
    <fieldset className="shipment-line">
      <legend>Line {n}</legend>
      <div className="form-grid">
        <SelectField
          label={`Product (line ${n})`}
          options={[
            { value: '', label: 'Choose a product' },
            ...products.map((p) => ({ value: p.id, label: p.product_name })),
          ]}
          value={line.product_id}
          error={errors.product_id ?? null}
          onChange={(e) => onChange({ ...line, product_id: e.target.value, lot_id: '' })}
        />
        <TextField
          label={`Quantity (line ${n})`}
          inputMode="decimal"
          autoComplete="off"
          value={line.quantity}
          error={errors.quantity ?? null}
          onChange={(e) => onChange({ ...line, quantity: e.target.value })}
        />
        <SelectField
          label={`Lot (line ${n}, optional)`}
          hint="Leave it to pick the earliest expiry first."
          options={[
            { value: '', label: 'Earliest expiry first' },
            ...lots.map((l) => ({
              value: l.id,
              label: l.expires_on ? `${l.number} (expires ${l.expires_on})` : l.number,
            })),
          ]}
          value={line.lot_id}
          onChange={(e) => onChange({ ...line, lot_id: e.target.value })}
        />
        <TextField
          label={`Package (line ${n})`}
          inputMode="numeric"
          autoComplete="off"
          hint="Lines with the same number share a package and its SSCC."
          value={line.package}
          error={errors.package ?? null}
          onChange={(e) => onChange({ ...line, package: e.target.value })}
        />
      </div>
      {onRemove ? (
        <Button variant="secondary" onClick={onRemove}>
          Remove line {n}
        </Button>
      ) : null}
    </fieldset>
  );
}

/**
 * The new-shipment form: the customer, where the stock leaves from, and the
 * lines. The server reserves the stock at once (first expiry first out unless
 * a lot is chosen) and refuses a shortage with what is available.
 */
export function ShipmentForm({
  customers,
  locations,
  products,
  onCreated,
}: {
  customers: Customer[];
  locations: LocationChoice[];
  products: ProductChoice[];
  onCreated: (shipment: Shipment) => void;
}) {
  const [values, setValues] = useState<ShipmentFormValues>(emptyShipmentForm);
  const [errors, setErrors] = useState<ShipmentFormErrors>({ lines: [{}] });
  const [serverError, setServerError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = validateShipmentForm(values);
    setErrors(found);
    if (hasErrors(found)) return;
    setBusy(true);
    setServerError(null);
    const result = await createShipment(shipmentBody(values));
    setBusy(false);
    if (!result.ok) {
      setServerError(result.message);
      return;
    }
    toast.success(`Shipment ${result.data.reference} created; its stock is reserved`);
    setValues(emptyShipmentForm());
    setErrors({ lines: [{}] });
    onCreated(result.data);
  }

  function setLine(index: number, line: LineValues) {
    setValues((v) => ({ ...v, lines: v.lines.map((l, i) => (i === index ? line : l)) }));
  }

  if (customers.length === 0 || locations.length === 0 || products.length === 0) {
    return (
      <p className="muted">
        {customers.length === 0
          ? 'Add a customer first: a shipment goes to one.'
          : locations.length === 0
            ? 'Stock leaves from a location: add one on the inventory page first.'
            : 'Add a product first.'}
      </p>
    );
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-label="New shipment">
      {serverError ? <ErrorAlert>{serverError} Nothing was reserved.</ErrorAlert> : null}
      <div className="form-grid">
        <SelectField
          label="Customer"
          options={[
            { value: '', label: 'Choose a customer' },
            ...customers.map((c) => ({ value: c.id, label: c.name })),
          ]}
          value={values.customer_id}
          error={errors.customer_id ?? null}
          onChange={(e) => setValues((v) => ({ ...v, customer_id: e.target.value }))}
        />
        <SelectField
          label="Ship from"
          hint="The stock at this location itself (not the locations below it)."
          options={[
            { value: '', label: 'Choose a location' },
            ...locations.map((l) => ({ value: l.id, label: `${l.code} — ${l.name}` })),
          ]}
          value={values.from_location_id}
          error={errors.from_location_id ?? null}
          onChange={(e) => setValues((v) => ({ ...v, from_location_id: e.target.value }))}
        />
      </div>
      {values.lines.map((line, i) => (
        <LineFields
          key={i}
          index={i}
          line={line}
          errors={errors.lines[i] ?? {}}
          products={products}
          onChange={(next) => setLine(i, next)}
          onRemove={
            values.lines.length > 1
              ? () => {
                  setValues((v) => ({ ...v, lines: v.lines.filter((_, j) => j !== i) }));
                  setErrors((e) => ({ ...e, lines: e.lines.filter((_, j) => j !== i) }));
                }
              : null
          }
        />
      ))}
      {values.lines.length < MAX_LINES ? (
        <Button
          variant="secondary"
          onClick={() => setValues((v) => ({ ...v, lines: [...v.lines, emptyLine()] }))}
        >
          Add a line
        </Button>
      ) : null}
      <FormActions busy={busy} submitLabel="Create shipment" />
    </form>
  );
}
