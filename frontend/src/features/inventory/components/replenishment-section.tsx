import { toast } from 'react-toastify/unstyled';
import { ErrorAlert } from '@/components/ui/alert';
import { ApiResultView } from '@/components/ui/api-result-view';
import { CardSection } from '@/components/ui/card-section';
import { DataTable, type Column } from '@/components/ui/data-table';
import { FormActions } from '@/components/ui/form-actions';
import { SelectField, TextField } from '@/components/ui/form-field';
import { useApiResult } from '@/hooks/use-api-result';
import { useForm } from '@/hooks/use-form';
import {
  fetchReorderRules,
  fetchReplenishment,
  putReorderRule,
  type ReorderRule,
  type ReplenishmentRow,
} from '../api/inventory-api';
import type { Catalogue } from '../api/use-catalogue';
import { emptyReorderForm, validateReorderForm, type ReorderFormValues } from '../forms';
import { QUANTITY_DIGITS, QUANTITY_PLACES, formatQuantity, parseDecimal } from '../quantities';
import { locationOptions, productOptions } from './choices';

const quantity = (text: string) => parseDecimal(text, QUANTITY_PLACES, QUANTITY_DIGITS) ?? text;

function replenishmentColumns(catalogue: Catalogue): Column<ReplenishmentRow>[] {
  return [
    { header: 'Product', cell: (row) => row.product_name },
    { header: 'Location', cell: (row) => catalogue.locationPath(row.location_id) },
    { header: 'On hand', className: 'num', cell: (row) => formatQuantity(row.on_hand) },
    { header: 'Reserved', className: 'num', cell: (row) => formatQuantity(row.reserved) },
    { header: 'Minimum', className: 'num', cell: (row) => formatQuantity(row.min_quantity) },
    { header: 'Order', className: 'num', cell: (row) => formatQuantity(row.suggested_quantity) },
  ];
}

function ruleColumns(catalogue: Catalogue): Column<ReorderRule>[] {
  return [
    { header: 'Product', cell: (rule) => rule.product_name },
    { header: 'Location', cell: (rule) => catalogue.locationPath(rule.location_id) },
    { header: 'Minimum', className: 'num', cell: (rule) => formatQuantity(rule.min_quantity) },
    { header: 'Maximum', className: 'num', cell: (rule) => formatQuantity(rule.max_quantity) },
  ];
}

function ReorderRuleForm({ catalogue, onSaved }: { catalogue: Catalogue; onSaved: () => void }) {
  const form = useForm<ReorderFormValues>(emptyReorderForm(), { clearErrorOnChange: true });
  const onSubmit = form.onSubmit(validateReorderForm, async (values) => {
    const result = await putReorderRule(values.product_id, {
      location_id: values.location_id,
      min_quantity: quantity(values.min_quantity),
      max_quantity: quantity(values.max_quantity),
    });
    if (!result.ok) return result.message;
    toast.success(`Reorder rule for ${catalogue.productName(values.product_id)} saved`);
    form.reset();
    onSaved();
    return null;
  });
  return (
    <form onSubmit={onSubmit} noValidate aria-label="Set a reorder rule">
      {form.serverError ? <ErrorAlert>{form.serverError}</ErrorAlert> : null}
      <div className="form-grid">
        <SelectField
          label="Product of the rule"
          options={productOptions(catalogue, 'Choose a product')}
          hint="A product has one rule: saving replaces it."
          {...form.field('product_id')}
        />
        <SelectField
          label="Location watched"
          options={locationOptions(catalogue, 'Choose a location')}
          hint="Its stock and the stock of the locations below it."
          {...form.field('location_id')}
        />
        <TextField
          label="Minimum"
          inputMode="decimal"
          autoComplete="off"
          hint="Below this much available, the product needs ordering."
          {...form.field('min_quantity')}
        />
        <TextField
          label="Maximum"
          inputMode="decimal"
          autoComplete="off"
          hint="An order fills up to this much."
          {...form.field('max_quantity')}
        />
      </div>
      <FormActions busy={form.busy} submitLabel="Save rule" />
    </form>
  );
}

/**
 * "Replenishment": the products whose available stock (released, unexpired,
 * not reserved) is below their rule's minimum, with the quantity that
 * fills them up to the maximum; the reorder rules, and for admins and
 * managers (`canManage`) the form that sets them.
 */
export function ReplenishmentSection({
  catalogue,
  version,
  canManage,
  onChanged,
}: {
  catalogue: Catalogue;
  version: number;
  canManage: boolean;
  onChanged: () => void;
}) {
  return (
    <CardSection title="Replenishment">
      <BelowMinimum key={`below-${version}`} catalogue={catalogue} />
      <h3>Reorder rules</h3>
      {canManage ? <ReorderRuleForm catalogue={catalogue} onSaved={onChanged} /> : null}
      <Rules key={`rules-${version}`} catalogue={catalogue} />
    </CardSection>
  );
}

function BelowMinimum({ catalogue }: { catalogue: Catalogue }) {
  const { result, reload } = useApiResult(fetchReplenishment);
  return (
    <ApiResultView result={result} onRetry={reload} loadingLabel="Loading the replenishment…">
      {(rows) => (
        <DataTable
          label="Products below their minimum"
          columns={replenishmentColumns(catalogue)}
          rows={rows}
          rowKey={(row) => row.product_id}
          empty="No product is below its minimum."
        />
      )}
    </ApiResultView>
  );
}

function Rules({ catalogue }: { catalogue: Catalogue }) {
  const { result, reload } = useApiResult(fetchReorderRules);
  return (
    <ApiResultView result={result} onRetry={reload} loadingLabel="Loading the reorder rules…">
      {(rules) => (
        <DataTable
          label="Reorder rules"
          columns={ruleColumns(catalogue)}
          rows={rules}
          rowKey={(rule) => rule.product_id}
          empty="No reorder rules yet."
        />
      )}
    </ApiResultView>
  );
}
