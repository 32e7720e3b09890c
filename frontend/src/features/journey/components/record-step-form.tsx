import { toast } from 'react-toastify/unstyled';
import { ErrorAlert } from '@/components/ui/alert';
import { FormActions } from '@/components/ui/form-actions';
import { SelectField, TextField } from '@/components/ui/form-field';
import { useForm } from '@/hooks/use-form';
import { recordStep, type RecordStepBody, type StepKind } from '../api/journey-api';
import { emptyStepForm, validateStepForm, type StepFormValues } from '../journey';
import { journeyMessages } from '../messages';

const STEPS: readonly { value: StepKind; label: string }[] = [
  { value: 'packing', label: 'Packing (into a case or pallet)' },
  { value: 'shipping', label: 'Shipping' },
  { value: 'receiving', label: 'Receiving' },
];

function body(skuid: string, v: StepFormValues): RecordStepBody {
  const step = v.step as StepKind;
  return {
    step,
    skuid,
    location: v.location.trim(),
    ...(v.lot.trim() ? { lot: v.lot.trim() } : {}),
    ...(v.quantity.trim() ? { quantity: Number(v.quantity.trim()) } : {}),
    ...(v.container.trim() ? { container: v.container.trim() } : {}),
    ...(step === 'shipping' && v.destination.trim() ? { destination: v.destination.trim() } : {}),
  };
}

/** Records packing, shipping or receiving of the product at a location (GLN). */
export function RecordStepForm({ skuid, onRecorded }: { skuid: string; onRecorded: () => void }) {
  const form = useForm<StepFormValues>(emptyStepForm, { clearErrorOnChange: true });
  const shipping = form.values.step === 'shipping';

  const onSubmit = form.onSubmit(validateStepForm, async (values) => {
    const result = await recordStep(body(skuid, values));
    if (result.ok) {
      toast.success(journeyMessages.recorded(values.step));
      form.reset();
      onRecorded();
      return null;
    }
    return result.message;
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Record a step">
      {form.serverError ? <ErrorAlert>{form.serverError}</ErrorAlert> : null}
      <div className="form-grid">
        <SelectField label="Step" name="step" options={STEPS} {...form.field('step')} />
        <TextField
          label="Location (GLN)"
          name="location"
          autoComplete="off"
          spellCheck={false}
          hint="13 digits, or https://id.gs1.org/414/… or urn:epc:id:sgln:…"
          {...form.field('location')}
          required
        />
        <TextField
          label="Container (SSCC)"
          name="container"
          autoComplete="off"
          inputMode="numeric"
          spellCheck={false}
          hint={
            form.values.step === 'packing'
              ? 'Required: the 18-digit SSCC of the case or pallet.'
              : 'Optional: the case or pallet that moves.'
          }
          {...form.field('container')}
        />
        <TextField
          label="Lot number"
          name="lot"
          autoComplete="off"
          spellCheck={false}
          hint="Optional."
          {...form.field('lot')}
        />
        <TextField
          label="Quantity"
          name="quantity"
          autoComplete="off"
          inputMode="numeric"
          hint="Optional: how many units."
          {...form.field('quantity')}
        />
        {shipping ? (
          <TextField
            label="Destination (GLN)"
            name="destination"
            autoComplete="off"
            spellCheck={false}
            hint="Optional: where the shipment goes."
            {...form.field('destination')}
          />
        ) : null}
      </div>
      <FormActions busy={form.busy} submitLabel="Record step" />
    </form>
  );
}
