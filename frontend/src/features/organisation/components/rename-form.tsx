import { useState, type FormEvent } from 'react';
import { toast } from 'react-toastify/unstyled';
import { ErrorAlert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/form-field';
import { renameOrganisation, type Organisation } from '../api/organisation-api';

/** Changes the organisation's display name (its tenant id stays). */
export function RenameForm({
  organisation,
  onRenamed,
}: {
  organisation: Organisation;
  onRenamed: (organisation: Organisation) => void;
}) {
  const [name, setName] = useState(organisation.name);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const unchanged = name.trim() === organisation.name;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!name.trim()) {
      setError('Enter a name.');
      return;
    }
    setBusy(true);
    setError(null);
    const result = await renameOrganisation(name.trim());
    setBusy(false);
    if (result.ok) {
      onRenamed(result.data);
      toast.success('Organisation name saved');
    } else {
      setError(result.message);
    }
  }

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      aria-label="Rename the organisation"
      className="inline-form"
    >
      {error ? <ErrorAlert>{error}</ErrorAlert> : null}
      <TextField
        label="Organisation name"
        value={name}
        onChange={(e) => setName(e.target.value)}
        autoComplete="organization"
      />
      <Button type="submit" variant="secondary" busy={busy} disabled={unchanged}>
        Save name
      </Button>
    </form>
  );
}
