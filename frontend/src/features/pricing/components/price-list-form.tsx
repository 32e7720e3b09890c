import { useState, type FormEvent } from 'react';
import { toast } from 'react-toastify/unstyled';
import { ErrorAlert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ChoiceField } from '@/components/ui/choice-field';
import { FormActions } from '@/components/ui/form-actions';
import { SelectField, TextField } from '@/components/ui/form-field';
import {
  createPriceList,
  updatePriceList,
  type PriceList,
  type ProductChoice,
  type Tiering,
} from '../api/pricing-api';
import {
  emptyBreak,
  emptyItem,
  emptyList,
  hasErrors,
  listBody,
  listValues,
  validateList,
  type BreakValues,
  type ListErrors,
  type ListValues,
} from '../forms';

const TIERINGS: readonly { value: Tiering; label: string }[] = [
  { value: 'volume', label: 'Volume: every unit at the price of the tier the quantity reaches' },
  { value: 'graduated', label: 'Graduated: each unit at the price of its own tier' },
];

/**
 * Creates a price list, or replaces `editing` whole (admins and managers):
 * its products, each with breaks from the smallest quantity up.
 */
export function PriceListForm({
  products,
  editing,
  onSaved,
  onCancel,
}: {
  products: readonly ProductChoice[];
  editing?: PriceList;
  onSaved: (list: PriceList) => void;
  onCancel?: () => void;
}) {
  const [values, setValues] = useState<ListValues>(() =>
    editing ? listValues(editing) : emptyList(),
  );
  const [errors, setErrors] = useState<ListErrors>({ items: [] });
  const [serverError, setServerError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const setItem = (
    i: number,
    change: (item: ListValues['items'][number]) => ListValues['items'][number],
  ) =>
    setValues((v) => ({ ...v, items: v.items.map((item, j) => (j === i ? change(item) : item)) }));
  const setBreak = (i: number, k: number, change: Partial<BreakValues>) =>
    setItem(i, (item) => ({
      ...item,
      breaks: item.breaks.map((b, j) => (j === k ? { ...b, ...change } : b)),
    }));

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = validateList(values);
    setErrors(found);
    if (hasErrors(found)) return;
    setBusy(true);
    const body = listBody(values);
    const result = editing ? await updatePriceList(editing.id, body) : await createPriceList(body);
    setBusy(false);
    if (!result.ok) {
      setServerError(result.message);
      return;
    }
    setServerError(null);
    toast.success(editing ? `${result.data.name} saved` : `${result.data.name} created`);
    if (!editing) setValues(emptyList());
    onSaved(result.data);
  }

  if (products.length === 0) {
    return <p className="muted">Add a product first: a price list prices products.</p>;
  }
  const productOptions = [
    { value: '', label: 'Choose a product' },
    ...products.map((p) => ({ value: p.id, label: p.product_name })),
  ];
  return (
    <form
      onSubmit={onSubmit}
      noValidate
      aria-label={editing ? `Edit ${editing.name}` : 'Create a price list'}
    >
      {serverError ? <ErrorAlert>{serverError}</ErrorAlert> : null}
      <div className="form-grid">
        <TextField
          label="Name"
          autoComplete="off"
          value={values.name}
          onChange={(e) => setValues((v) => ({ ...v, name: e.target.value }))}
          error={errors.name ?? null}
        />
        <TextField
          label="Currency"
          maxLength={3}
          autoComplete="off"
          hint="ISO 4217, such as EUR or JPY: amounts are rounded to its minor unit."
          value={values.currency}
          onChange={(e) => setValues((v) => ({ ...v, currency: e.target.value }))}
          error={errors.currency ?? null}
        />
        <TextField
          label="Valid from"
          type="date"
          value={values.valid_from}
          onChange={(e) => setValues((v) => ({ ...v, valid_from: e.target.value }))}
          error={errors.valid_from ?? null}
        />
        <TextField
          label="Valid to (optional)"
          type="date"
          hint="The last day it applies; empty: open-ended."
          value={values.valid_to}
          onChange={(e) => setValues((v) => ({ ...v, valid_to: e.target.value }))}
          error={errors.valid_to ?? null}
        />
        <TextField
          label="Customer group (optional)"
          autoComplete="off"
          hint="Empty: the default list, for customers without a group's list."
          value={values.customer_group}
          onChange={(e) => setValues((v) => ({ ...v, customer_group: e.target.value }))}
          error={errors.customer_group ?? null}
        />
      </div>
      <ChoiceField
        label="Tiers"
        name="tiering"
        options={TIERINGS}
        value={values.tiering}
        onChange={(tiering) => setValues((v) => ({ ...v, tiering }))}
      />
      {values.items.map((item, i) => (
        <fieldset className="pricing-item" key={i}>
          <legend>Product {i + 1}</legend>
          <SelectField
            label="Product"
            value={item.product_id}
            onChange={(e) => setItem(i, (it) => ({ ...it, product_id: e.target.value }))}
            error={errors.items[i]?.product_id ?? null}
            options={productOptions}
          />
          {item.breaks.map((b, k) => (
            <div className="pricing-break" key={k}>
              <TextField
                label={`Break ${k + 1}: from quantity`}
                inputMode="decimal"
                autoComplete="off"
                value={b.min_quantity}
                onChange={(e) => setBreak(i, k, { min_quantity: e.target.value })}
                error={errors.items[i]?.breaks[k]?.min_quantity ?? null}
              />
              <TextField
                label={`Break ${k + 1}: unit price`}
                inputMode="decimal"
                autoComplete="off"
                value={b.unit_price}
                onChange={(e) => setBreak(i, k, { unit_price: e.target.value })}
                error={errors.items[i]?.breaks[k]?.unit_price ?? null}
              />
              {item.breaks.length > 1 ? (
                <Button
                  variant="ghost"
                  onClick={() =>
                    setItem(i, (it) => ({ ...it, breaks: it.breaks.filter((_, j) => j !== k) }))
                  }
                >
                  Remove break {k + 1}
                </Button>
              ) : null}
            </div>
          ))}
          <div className="pricing-actions">
            <Button
              variant="secondary"
              onClick={() => setItem(i, (it) => ({ ...it, breaks: [...it.breaks, emptyBreak()] }))}
            >
              Add a break
            </Button>
            {values.items.length > 1 ? (
              <Button
                variant="ghost"
                onClick={() =>
                  setValues((v) => ({ ...v, items: v.items.filter((_, j) => j !== i) }))
                }
              >
                Remove product {i + 1}
              </Button>
            ) : null}
          </div>
        </fieldset>
      ))}
      <div className="pricing-actions">
        <Button
          variant="secondary"
          onClick={() => setValues((v) => ({ ...v, items: [...v.items, emptyItem()] }))}
        >
          Add a product
        </Button>
      </div>
      <FormActions
        busy={busy}
        onCancel={onCancel}
        submitLabel={editing ? 'Save the list' : 'Create the list'}
      />
    </form>
  );
}
