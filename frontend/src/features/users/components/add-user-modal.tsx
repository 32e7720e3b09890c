import { useState, type FormEvent } from 'react';
import { toast } from 'react-toastify';
import { ErrorAlert } from '@/components/ui/alert';
import { CancelSubmitActions } from '@/components/ui/form-actions';
import { PasswordField, SelectField, TextField } from '@/components/ui/form-field';
import { Modal } from '@/components/ui/modal';
import { addOrgUser, addUserMessage, type NewUserRole } from '../api/users-api';
import { EMAIL_PATTERN, PASSWORD_HINT, PASSWORD_MAX, PASSWORD_MIN } from '@/lib/validation';
import { userMessages } from '../messages';

/** New users can only be workers or managers; worker is the default (spec §5, §9). */
const ROLE_OPTIONS: readonly { value: NewUserRole; label: string }[] = [
  { value: 'worker', label: 'Worker' },
  { value: 'manager', label: 'Manager' },
];

interface FieldErrors {
  name?: string;
  email?: string;
  password?: string;
}

function validate(name: string, email: string, password: string): FieldErrors {
  const errors: FieldErrors = {};
  if (!name.trim()) errors.name = 'Enter a name.';
  if (!email.trim()) errors.email = 'Enter an email address.';
  else if (!EMAIL_PATTERN.test(email.trim())) errors.email = userMessages.invalidEmail;
  if (!password) errors.password = 'Enter a password.';
  else if (password.length < PASSWORD_MIN)
    errors.password = `Use at least ${PASSWORD_MIN} characters.`;
  else if (password.length > PASSWORD_MAX)
    errors.password = `Use at most ${PASSWORD_MAX} characters.`;
  return errors;
}

/** The form inside 'Add New User'; mounted fresh each time the modal opens. */
function AddUserForm({ onDone }: { onDone: () => void }) {
  const [name, setName] = useState('');
  const [role, setRole] = useState<NewUserRole>('worker');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [serverDetail, setServerDetail] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = validate(name, email, password);
    setErrors(found);
    if (found.email === userMessages.invalidEmail) toast.error(userMessages.invalidEmail);
    if (found.name || found.email || found.password) return;

    setBusy(true);
    setServerDetail(null);
    const outcome = await addOrgUser({ name: name.trim(), email: email.trim(), password, role });
    setBusy(false);
    if (outcome.kind === 'added') {
      toast.success(addUserMessage(outcome));
      onDone();
      return;
    }
    toast.error(addUserMessage(outcome));
    if (outcome.kind === 'failed' && outcome.detail) setServerDetail(outcome.detail);
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Add New User">
      {serverDetail ? <ErrorAlert>{serverDetail}</ErrorAlert> : null}
      <TextField
        label="Name"
        name="name"
        autoComplete="off"
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={errors.name ?? null}
        required
      />
      <SelectField
        label="Role"
        name="role"
        value={role}
        onChange={(e) => setRole(e.target.value as NewUserRole)}
        options={ROLE_OPTIONS}
      />
      <TextField
        label="Email"
        name="email"
        type="email"
        autoComplete="off"
        inputMode="email"
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        error={errors.email ?? null}
        required
      />
      <PasswordField
        label="Password"
        name="password"
        autoComplete="new-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        error={errors.password ?? null}
        hint={PASSWORD_HINT}
        required
      />
      <CancelSubmitActions onCancel={onDone} busy={busy} />
    </form>
  );
}

export function AddUserModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Modal open={open} title="Add New User" onClose={onClose}>
      {open ? <AddUserForm onDone={onClose} /> : null}
    </Modal>
  );
}
