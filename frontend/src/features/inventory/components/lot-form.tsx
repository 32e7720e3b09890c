import { toast } from 'react-toastify/unstyled';
import { ErrorAlert } from '@/components/ui/alert';
import { FormActions } from '@/components/ui/form-actions';
import { SelectField, TextField } from '@/components/ui/form-field';
import { useForm } from '@/hooks/use-form';
import { LOT_MAX, SET_82_CHARACTERS } from '@/lib/gs1';
import { createLot, type Lot, type NewLot } from '../api/inventory-api';
import type { Catalogue } from '../api/use-catalogue';
import { emptyLotForm, validateLotForm, type LotFormValues } from '../forms';
import { productOptions } from './choices';

/** "Register a lot": a lot of a product (GS1 AI 10), with its dates, in the one lot register. */
export function LotForm({
  catalogue,
  productId,
  onCreated,
}: {
  catalogue: Catalogue;
  /** The product chosen elsewhere on the page, to start with. */
  productId: string;
  onCreated: (lot: Lot) => void;
}) {
  const form = useForm<LotFormValues>(emptyLotForm(productId), { clearErrorOnChange: true });

  const onSubmit = form.onSubmit(validateLotForm, async (values) => {
    const body: NewLot = { product_id: values.product_id, number: values.number.trim() };
    if (values.manufactured_on) body.manufactured_on = values.manufactured_on;
    if (values.expires_on) body.expires_on = values.expires_on;
    const result = await createLot(body);
    if (!result.ok) return result.message;
    toast.success(`Lot ${result.data.number} registered`);
    form.reset();
    onCreated(result.data);
    return null;
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Register a lot">
      {form.serverError ? <ErrorAlert>{form.serverError}</ErrorAlert> : null}
      <div className="form-grid">
        <SelectField
          label="Product of the lot"
          options={productOptions(catalogue, 'Choose a product')}
          {...form.field('product_id')}
        />
        <TextField
          label="Lot number"
          autoComplete="off"
          spellCheck={false}
          hint={`Up to ${LOT_MAX} ${SET_82_CHARACTERS}.`}
          {...form.field('number')}
        />
        <TextField
          label="Manufactured on (optional)"
          type="date"
          {...form.field('manufactured_on')}
        />
        <TextField label="Expires on (optional)" type="date" {...form.field('expires_on')} />
      </div>
      <FormActions busy={form.busy} submitLabel="Register lot" />
    </form>
  );
}
