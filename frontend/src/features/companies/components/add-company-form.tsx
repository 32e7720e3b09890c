import { useState, type FormEvent } from 'react';
import { toast } from 'react-toastify/unstyled';
import { ErrorAlert } from '@/components/ui/alert';
import { FormActions } from '@/components/ui/form-actions';
import { TextField } from '@/components/ui/form-field';
import { createCompany, type Company } from '../api/companies-api';
import { cinProblem } from '../cin';

interface Problems {
  cin?: string;
  name?: string;
  registered_address?: string;
}

/**
 * Adds a company by its CIN, registered name and address (admins). The CIN
 * is checked part by part as the server does, before it is sent.
 */
export function AddCompanyForm({ onAdded }: { onAdded: (company: Company) => void }) {
  const [cin, setCin] = useState('');
  const [name, setName] = useState('');
  const [address, setAddress] = useState('');
  const [problems, setProblems] = useState<Problems>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found: Problems = {};
    const cinWrong = cinProblem(cin.trim());
    if (cinWrong) found.cin = cinWrong;
    if (!name.trim()) found.name = 'Enter the company’s registered name.';
    if (!address.trim()) found.registered_address = 'Enter the company’s registered address.';
    setProblems(found);
    setError(null);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    const result = await createCompany({
      cin: cin.trim(),
      name: name.trim(),
      registered_address: address.trim(),
    });
    setBusy(false);
    if (result.ok) {
      toast.success(`Company ${result.data.cin} added`);
      setCin('');
      setName('');
      setAddress('');
      onAdded(result.data);
    } else {
      setError(result.message);
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Add company">
      {error ? <ErrorAlert>{error}</ErrorAlert> : null}
      <div className="form-grid">
        <TextField
          label="CIN"
          hint="21 characters, e.g. L24230MH1950PLC008311"
          value={cin}
          onChange={(e) => setCin(e.target.value.toUpperCase())}
          error={problems.cin}
          maxLength={21}
          autoComplete="off"
          spellCheck={false}
        />
        <TextField
          label="Registered name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={problems.name}
          maxLength={200}
          autoComplete="organization"
        />
      </div>
      <TextField
        label="Registered address"
        hint="Printed on Schedule H2 labels as the manufacturer’s address."
        value={address}
        onChange={(e) => setAddress(e.target.value)}
        error={problems.registered_address}
        maxLength={500}
        autoComplete="street-address"
      />
      <FormActions busy={busy} submitLabel="Add company" />
    </form>
  );
}
