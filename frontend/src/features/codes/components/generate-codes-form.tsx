import { useState, type ChangeEvent } from 'react';
import { toast } from 'react-toastify/unstyled';
import { ErrorAlert } from '@/components/ui/alert';
import { FormActions } from '@/components/ui/form-actions';
import { TextField } from '@/components/ui/form-field';
import { useForm } from '@/hooks/use-form';
import { createCodeJob, type CodeJob } from '../api/codes-api';
import { formatDay, type ProductLot } from '../code-jobs';
import {
  codeJobFormHints,
  emptyCodeJobForm,
  fieldOfServerMessage,
  formatQuantityInput,
  newCodeJobBody,
  validateCodeJobForm,
  type CodeJobFormValues,
} from '../code-job-form';
import { codeMessages } from '../messages';

/** The server's refusal of one field, shown there until the form changes. */
interface ServerFieldError {
  field: keyof CodeJobFormValues;
  values: CodeJobFormValues;
  message: string;
}

function sameValues(a: CodeJobFormValues, b: CodeJobFormValues): boolean {
  return (Object.keys(a) as (keyof CodeJobFormValues)[]).every((key) => a[key] === b[key]);
}

/** What the lot field says when the number typed is a lot the product already has. */
function knownLotHint(lot: ProductLot): string {
  const dates = [
    lot.manufactured_on ? `made ${formatDay(lot.manufactured_on)}` : '',
    lot.expires_on ? `expires ${formatDay(lot.expires_on)}` : '',
  ].filter(Boolean);
  return `Lot ${lot.number} exists${dates.length ? ` (${dates.join(', ')})` : ''}: its dates are kept, so leave the dates empty or give the same ones.`;
}

/**
 * "Generate codes": starts a code job for the product. Checks what the
 * server checks before sending; the server's reason for a refusal (the code
 * quota, a lot with other dates) is shown as it words it, at the field it
 * names or above the form.
 */
export function GenerateCodesForm({
  productId,
  remaining,
  lots,
  onCreated,
  onRefused,
}: {
  productId: string;
  /** The codes left in the plan's quota, when known. */
  remaining?: number;
  /** The product's lots, to say when the number typed is one of them. */
  lots: readonly ProductLot[];
  onCreated: (job: CodeJob) => void;
  /** The server refused for the organisation's situation (its quota, say): worth a new look. */
  onRefused: () => void;
}) {
  const form = useForm<CodeJobFormValues>(emptyCodeJobForm(), { clearErrorOnChange: true });
  const [serverField, setServerField] = useState<ServerFieldError | null>(null);

  function fieldProps(name: keyof CodeJobFormValues) {
    const props = form.field(name);
    const fromServer =
      serverField?.field === name && sameValues(serverField.values, form.values)
        ? serverField.message
        : null;
    return { ...props, error: props.error ?? fromServer };
  }

  const quantity = fieldProps('quantity');
  const lotNumber = form.values.lot_number.trim();
  const knownLot = lotNumber ? lots.find((lot) => lot.number === lotNumber) : undefined;

  const onSubmit = form.onSubmit(validateCodeJobForm, async (values) => {
    setServerField(null);
    const body = newCodeJobBody(productId, values);
    const result = await createCodeJob(body);
    if (result.ok) {
      toast.success(codeMessages.started(result.data.quantity));
      form.reset();
      onCreated(result.data);
      return null;
    }
    if (result.kind === 'status' && (result.status === 403 || result.status === 409)) onRefused();
    if (result.kind === 'status' && (result.status === 400 || result.status === 409)) {
      const field = fieldOfServerMessage(result.message);
      if (field) {
        setServerField({ field, values, message: result.message });
        return null;
      }
    }
    return result.message;
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Generate codes">
      {form.serverError ? <ErrorAlert>{form.serverError}</ErrorAlert> : null}
      <div className="form-grid">
        <TextField
          label="Quantity"
          name="quantity"
          autoComplete="off"
          inputMode="numeric"
          spellCheck={false}
          hint={codeJobFormHints.quantity(remaining)}
          {...quantity}
          onBlur={(event) => {
            const formatted = formatQuantityInput(event.target.value);
            if (formatted !== event.target.value)
              quantity.onChange({
                target: { value: formatted },
              } as ChangeEvent<HTMLInputElement>);
          }}
          required
        />
        <TextField
          label="Lot number"
          name="lot_number"
          autoComplete="off"
          spellCheck={false}
          hint={knownLot ? knownLotHint(knownLot) : codeJobFormHints.lot}
          {...fieldProps('lot_number')}
        />
      </div>
      <div className="form-grid">
        <TextField
          label="Manufactured on"
          name="manufactured_on"
          type="date"
          hint="Optional, with a lot number."
          {...fieldProps('manufactured_on')}
        />
        <TextField
          label="Expires on"
          name="expires_on"
          type="date"
          hint="Optional, with a lot number; after the manufacturing date."
          {...fieldProps('expires_on')}
        />
      </div>
      <FormActions busy={form.busy} submitLabel="Generate codes" />
    </form>
  );
}
