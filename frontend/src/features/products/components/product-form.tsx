import { useState } from 'react';
import { toast } from 'react-toastify/unstyled';
import { ErrorAlert } from '@/components/ui/alert';
import { FormActions } from '@/components/ui/form-actions';
import { SelectField, TextAreaField, TextField } from '@/components/ui/form-field';
import { useForm } from '@/hooks/use-form';
import type { ApiResult } from '@/lib/api/call-api';
import { createProduct, updateProduct, type Product } from '../api/products-api';
import { productMessages } from '../messages';
import {
  attributeRows,
  attributesBody,
  hasAttributeErrors,
  validateAttributes,
  type AttributeErrors,
  type AttributeRow,
} from '../product-attributes';
import {
  companyOptions,
  emptyProductForm,
  fieldOfServerMessage,
  newProductBody,
  productChangeBody,
  productFormHints,
  productFormValues,
  validateProductForm,
  withCompany,
  type CompanyChoice,
  type ProductFormValues,
} from '../product-form';
import { AttributesEditor } from './attributes-editor';

/** The server's refusal of one field, shown there until that field changes. */
interface ServerFieldError {
  field: keyof ProductFormValues;
  value: string;
  message: string;
}

/**
 * The one product form, for adding (`original` absent) and editing. Checks
 * what the server checks before sending; the server's reason for a refusal
 * is shown at its field, or above the form. With `companies` (an
 * organisation that operates several, client A), a select links the product
 * to one of them.
 */
export function ProductForm({
  original,
  companies = [],
  onSaved,
  onCancel,
}: {
  original?: Product;
  companies?: readonly CompanyChoice[];
  onSaved: (product: Product) => void;
  onCancel: () => void;
}) {
  const [companyId, setCompanyId] = useState(original?.company_id ?? '');
  const form = useForm<ProductFormValues>(
    original ? productFormValues(original) : emptyProductForm(),
    { clearErrorOnChange: true },
  );
  const [serverField, setServerField] = useState<ServerFieldError | null>(null);
  const [attributes, setAttributes] = useState<AttributeRow[]>(() =>
    attributeRows(original?.attributes ?? []),
  );
  const [attributeErrors, setAttributeErrors] = useState<AttributeErrors>({ rows: {} });

  function fieldProps(name: keyof ProductFormValues) {
    const props = form.field(name);
    const fromServer =
      serverField?.field === name && serverField.value === form.values[name]
        ? serverField.message
        : null;
    return { ...props, error: props.error ?? fromServer };
  }

  const onSubmit = form.onSubmit(
    (values) => {
      setAttributeErrors(validateAttributes(attributes));
      return validateProductForm(values, original);
    },
    async (values) => {
      // The attributes' errors are shown at their rows: nothing is sent.
      if (hasAttributeErrors(validateAttributes(attributes))) return null;
      setServerField(null);
      const typed = attributesBody(attributes);
      let result: ApiResult<Product>;
      if (original) {
        const change = withCompany(productChangeBody(original, values, typed), companyId, original);
        if (Object.keys(change).length === 0) return 'Nothing to save: no field has changed.';
        result = await updateProduct(original.id, change);
      } else {
        result = await createProduct(withCompany(newProductBody(values, typed), companyId));
      }
      if (result.ok) {
        toast.success(original ? productMessages.updated : productMessages.added);
        onSaved(result.data);
        return null;
      }
      if (result.kind === 'status' && (result.status === 400 || result.status === 409)) {
        const field = fieldOfServerMessage(result.message);
        if (field) {
          setServerField({ field, value: values[field], message: result.message });
          return null;
        }
      }
      return result.message;
    },
  );

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      aria-label={original ? 'Edit product' : 'Add product'}
      className="card product-form"
    >
      {form.serverError ? <ErrorAlert>{form.serverError}</ErrorAlert> : null}
      <TextField
        label="Name"
        name="product_name"
        autoComplete="off"
        maxLength={400}
        {...fieldProps('product_name')}
        required
      />
      <div className="form-grid">
        <TextField
          label="SKU id"
          name="skuid"
          autoComplete="off"
          spellCheck={false}
          hint={productFormHints.skuid}
          {...fieldProps('skuid')}
          required
        />
        <TextField
          label="GTIN"
          name="gtin"
          autoComplete="off"
          inputMode="numeric"
          spellCheck={false}
          hint={productFormHints.gtin}
          {...fieldProps('gtin')}
          required
        />
      </div>
      {companies.length > 0 ? (
        <SelectField
          label="Company"
          name="company_id"
          hint="Optional: the company (CIN) that makes it."
          options={companyOptions(companies, original?.company_id)}
          value={companyId}
          onChange={(event) => setCompanyId(event.target.value)}
        />
      ) : null}
      <TextField
        label="Category"
        name="category"
        autoComplete="off"
        hint={productFormHints.category}
        {...fieldProps('category')}
      />
      <TextAreaField
        label="Description"
        name="product_description"
        rows={5}
        hint={productFormHints.description}
        {...fieldProps('product_description')}
      />
      <div className="form-grid">
        <TextField
          label="Unit of measure"
          name="unit"
          autoComplete="off"
          spellCheck={false}
          hint={productFormHints.unit}
          {...fieldProps('unit')}
          required
        />
        <div className="field">
          <label className="check">
            <input
              type="checkbox"
              name="requires_inspection"
              checked={form.values.requires_inspection === 'true'}
              aria-describedby="requires-inspection-hint"
              onChange={(event) =>
                form.choice('requires_inspection').onChange(String(event.target.checked))
              }
            />
            Requires inspection
          </label>
          <span className="field__hint" id="requires-inspection-hint">
            {productFormHints.requiresInspection}
          </span>
        </div>
      </div>
      <AttributesEditor
        rows={attributes}
        errors={attributeErrors}
        onChange={(rows) => {
          setAttributes(rows);
          setAttributeErrors({ rows: {} });
        }}
      />
      <FormActions
        onCancel={onCancel}
        busy={form.busy}
        submitLabel={original ? 'Save changes' : 'Add product'}
      />
    </form>
  );
}
