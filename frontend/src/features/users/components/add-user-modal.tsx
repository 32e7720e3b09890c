import { toast } from 'react-toastify/unstyled';
import { ErrorAlert } from '@/components/ui/alert';
import { FormActions } from '@/components/ui/form-actions';
import { NewPasswordField, SelectField, TextField } from '@/components/ui/form-field';
import { Modal } from '@/components/ui/modal';
import { useForm, type FieldErrors } from '@/hooks/use-form';
import type { Role } from '@/lib/api/types';
import { roleLabel } from '@/lib/format';
import { EMAIL_PATTERN, PASSWORD_MAX, PASSWORD_MIN } from '@/lib/validation';
import { useAppStore } from '@/stores/app-store';
import { addOrgUser, addUserMessage, type NewUserRole } from '../api/users-api';
import { userMessages } from '../messages';

type NewUserForm = { name: string; role: NewUserRole; email: string; password: string };

function validate({ name, email, password }: NewUserForm): FieldErrors<NewUserForm> {
  const errors: FieldErrors<NewUserForm> = {};
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

/**
 * The form inside 'Add New User'; mounted fresh each time the modal opens.
 * Its roles are the server's for this organisation (the session's
 * `assignableRoles`: a brand's workers, the default, and managers, spec §5,
 * §9; a client organisation's employees), the first chosen.
 */
function AddUserForm({ roles, onDone }: { roles: readonly Role[]; onDone: () => void }) {
  const form = useForm<NewUserForm>({ name: '', role: roles[0] ?? '', email: '', password: '' });
  const roleOptions = roles.map((role) => ({ value: role, label: roleLabel(role) }));

  const onSubmit = form.onSubmit(
    (values) => {
      const errors = validate(values);
      if (errors.email === userMessages.invalidEmail) toast.error(userMessages.invalidEmail);
      return errors;
    },
    async ({ name, role, email, password }) => {
      const outcome = await addOrgUser({ name: name.trim(), email: email.trim(), password, role });
      if (outcome.kind === 'added') {
        toast.success(addUserMessage(outcome));
        onDone();
        return null;
      }
      toast.error(addUserMessage(outcome));
      // The spec's toast does not say what to fix; the server's own reason does.
      return outcome.kind === 'failed' ? outcome.detail : null;
    },
  );

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Add New User">
      {form.serverError ? <ErrorAlert>{form.serverError}</ErrorAlert> : null}
      <TextField label="Name" name="name" autoComplete="off" {...form.field('name')} required />
      <SelectField label="Role" name="role" {...form.field('role')} options={roleOptions} />
      <TextField
        label="Email"
        name="email"
        type="email"
        autoComplete="off"
        inputMode="email"
        {...form.field('email')}
        required
      />
      <NewPasswordField label="Password" name="password" {...form.field('password')} required />
      <FormActions onCancel={onDone} busy={form.busy} />
    </form>
  );
}

export function AddUserModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const roles = useAppStore((s) => s.auth.assignableRoles);
  return (
    <Modal open={open} title="Add New User" onClose={onClose}>
      {open ? <AddUserForm roles={roles} onDone={onClose} /> : null}
    </Modal>
  );
}
