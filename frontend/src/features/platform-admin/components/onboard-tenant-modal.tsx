import { useState, type FormEvent } from 'react';
import { toast } from 'react-toastify';
import { ErrorAlert } from '@/components/ui/alert';
import { CancelSubmitActions } from '@/components/ui/form-actions';
import { PasswordField, SelectField, TextField } from '@/components/ui/form-field';
import { Modal } from '@/components/ui/modal';
import { EMAIL_PATTERN, PASSWORD_HINT, passwordLengthOk } from '@/lib/validation';
import { createTenant, type NewTenant, type Tenant } from '../api/tenants-api';

const TENANT_ID = /^[A-Za-z][A-Za-z0-9_-]{1,39}$/;

type Kind = NewTenant['kind'];
const KINDS: readonly { value: Kind; label: string }[] = [
  { value: 'brand', label: 'Brand' },
  { value: 'client', label: 'Client' },
];

type Errors = Partial<
  Record<'clientId' | 'name' | 'userLimit' | 'adminName' | 'adminEmail' | 'adminPassword', string>
>;

function OnboardForm({
  onDone,
  onCreated,
}: {
  onDone: () => void;
  onCreated: (t: Tenant) => void;
}) {
  const [clientId, setClientId] = useState('');
  const [name, setName] = useState('');
  const [kind, setKind] = useState<Kind>('brand');
  const [userLimit, setUserLimit] = useState('10');
  const [adminName, setAdminName] = useState('');
  const [adminEmail, setAdminEmail] = useState('');
  const [adminPassword, setAdminPassword] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found: Errors = {};
    const limit = Number(userLimit);
    if (!TENANT_ID.test(clientId.trim())) {
      found.clientId = 'Start with a letter; use 2 to 40 letters, digits, - or _.';
    }
    if (!name.trim()) found.name = 'Enter the organisation’s name.';
    if (!Number.isInteger(limit) || limit < 1)
      found.userLimit = 'Enter a whole number of 1 or more.';
    if (!adminName.trim()) found.adminName = 'Enter the first admin’s name.';
    if (!EMAIL_PATTERN.test(adminEmail.trim())) found.adminEmail = 'Enter a valid email address.';
    if (!passwordLengthOk(adminPassword)) {
      found.adminPassword = `Use ${PASSWORD_HINT}`;
    }
    setErrors(found);
    if (Object.keys(found).length > 0) return;

    setBusy(true);
    setServerError(null);
    const result = await createTenant({
      clientId: clientId.trim(),
      name: name.trim(),
      kind,
      userLimit: limit,
      admin: { name: adminName.trim(), email: adminEmail.trim(), password: adminPassword },
    });
    setBusy(false);
    if (result.ok) {
      toast.success(`${result.data.name} is ready; its admin can sign in now.`);
      onCreated(result.data);
      onDone();
    } else {
      setServerError(result.message);
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Onboard a tenant">
      {serverError ? <ErrorAlert>{serverError}</ErrorAlert> : null}
      <div className="form-grid">
        <TextField
          label="Tenant id"
          value={clientId}
          onChange={(e) => setClientId(e.target.value)}
          error={errors.clientId ?? null}
          hint="Permanent; used in the organisation’s URLs."
          autoComplete="off"
        />
        <TextField
          label="Organisation name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={errors.name ?? null}
          autoComplete="off"
        />
        <SelectField
          label="Kind"
          value={kind}
          onChange={(e) => setKind(e.target.value as Kind)}
          options={KINDS}
        />
        <TextField
          label="User limit"
          type="number"
          min={1}
          inputMode="numeric"
          value={userLimit}
          onChange={(e) => setUserLimit(e.target.value)}
          error={errors.userLimit ?? null}
        />
      </div>
      <h3 className="card__title">First admin</h3>
      <TextField
        label="Admin name"
        value={adminName}
        onChange={(e) => setAdminName(e.target.value)}
        error={errors.adminName ?? null}
        autoComplete="off"
      />
      <TextField
        label="Admin email"
        type="email"
        value={adminEmail}
        onChange={(e) => setAdminEmail(e.target.value)}
        error={errors.adminEmail ?? null}
        autoComplete="off"
      />
      <PasswordField
        label="Admin password"
        value={adminPassword}
        onChange={(e) => setAdminPassword(e.target.value)}
        error={errors.adminPassword ?? null}
        hint={`${PASSWORD_HINT} Share it with the admin privately.`}
        autoComplete="new-password"
      />
      <CancelSubmitActions onCancel={onDone} busy={busy} submitLabel="Create tenant" />
    </form>
  );
}

export function OnboardTenantModal({
  open,
  onClose,
  onCreated,
}: {
  open: boolean;
  onClose: () => void;
  onCreated: (tenant: Tenant) => void;
}) {
  return (
    <Modal open={open} title="Onboard a tenant" onClose={onClose}>
      {open ? <OnboardForm onDone={onClose} onCreated={onCreated} /> : null}
    </Modal>
  );
}
