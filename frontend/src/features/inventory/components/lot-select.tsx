import { ApiResultView } from '@/components/ui/api-result-view';
import { SelectField } from '@/components/ui/form-field';
import { useApiResult } from '@/hooks/use-api-result';
import { fetchLots, type Lot } from '../api/inventory-api';
import { expiryState, expiryWarning, formatDay, today } from '../expiry';

/** A lot as an option: its number, its expiry, and what stops it moving. */
export function lotOptionLabel(lot: Lot, on: string): string {
  const parts = [lot.number];
  if (lot.expires_on) {
    const warning = expiryWarning(expiryState(lot.expires_on, on));
    parts.push(warning ?? `expires ${formatDay(lot.expires_on)}`);
  }
  if (lot.status !== 'released') parts.push(lot.status);
  return parts.join(' · ');
}

interface LotSelectProps {
  productId: string;
  value: string;
  onChange: (lotId: string) => void;
  error?: string | null;
  /** The label of the empty choice when it means "any lot" (a filter). */
  anyLabel?: string;
}

/**
 * The lot field of a form: the chosen product's lots, loaded when the
 * product is chosen (its parent remounts it, with a `key`, to load again).
 */
export function LotSelect({ productId, value, onChange, error, anyLabel }: LotSelectProps) {
  if (!productId) {
    return (
      <SelectField
        label="Lot"
        value=""
        disabled
        options={[{ value: '', label: 'Choose a product first' }]}
        error={error}
      />
    );
  }
  return (
    <ProductLots
      productId={productId}
      value={value}
      onChange={onChange}
      error={error}
      anyLabel={anyLabel}
    />
  );
}

function ProductLots({ productId, value, onChange, error, anyLabel }: LotSelectProps) {
  const { result, reload } = useApiResult(() => fetchLots(productId));
  const on = today();
  return (
    <ApiResultView result={result} onRetry={reload} loadingLabel="Loading the lots…">
      {(lots) => (
        <SelectField
          label="Lot"
          value={value}
          onChange={(e) => onChange(e.target.value)}
          error={error}
          hint={
            lots.length === 0 && !anyLabel
              ? 'This product has no lots yet: register one first.'
              : undefined
          }
          options={[
            { value: '', label: anyLabel ?? (lots.length ? 'Choose a lot' : 'No lots') },
            ...lots.map((lot) => ({ value: lot.id, label: lotOptionLabel(lot, on) })),
          ]}
        />
      )}
    </ApiResultView>
  );
}
