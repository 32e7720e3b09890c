import { useState, type FormEvent } from 'react';
import { toast } from 'react-toastify/unstyled';
import { ErrorAlert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/form-field';
import { updateGs1CompanyPrefix, type Organisation } from '../api/organisation-api';

/**
 * The organisation's GS1 company prefix (6 to 12 digits, as GS1 assigned
 * it): the SSCCs of its shipments' packages are built from it, and shipping
 * is refused until it is set.
 */
export function Gs1Form({
  organisation,
  onSaved,
}: {
  organisation: Organisation;
  onSaved: (organisation: Organisation) => void;
}) {
  const current = organisation.gs1CompanyPrefix ?? '';
  const [prefix, setPrefix] = useState(current);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const unchanged = prefix.trim() === current;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const value = prefix.trim();
    if (!/^\d{6,12}$/.test(value)) {
      setError('A GS1 company prefix is 6 to 12 digits, as GS1 assigned it.');
      return;
    }
    setBusy(true);
    setError(null);
    const result = await updateGs1CompanyPrefix(value);
    setBusy(false);
    if (result.ok) {
      onSaved(result.data);
      toast.success('GS1 company prefix saved');
    } else {
      setError(result.message);
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-label="GS1 company prefix" className="inline-form">
      {error ? <ErrorAlert>{error}</ErrorAlert> : null}
      <TextField
        label="GS1 company prefix"
        inputMode="numeric"
        autoComplete="off"
        value={prefix}
        hint={
          current
            ? 'Your shipments’ SSCCs are built from it.'
            : 'Not set yet: shipments cannot ship until it is, as their SSCCs are built from it.'
        }
        onChange={(e) => setPrefix(e.target.value)}
      />
      <Button type="submit" variant="secondary" busy={busy} disabled={unchanged}>
        Save prefix
      </Button>
    </form>
  );
}
