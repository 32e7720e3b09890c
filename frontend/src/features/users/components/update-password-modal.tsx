import { toast } from 'react-toastify/unstyled';
import { FormActions } from '@/components/ui/form-actions';
import { NewPasswordField } from '@/components/ui/form-field';
import { Modal } from '@/components/ui/modal';
import { useForm, type FieldErrors } from '@/hooks/use-form';
import { resetOrgUserPassword } from '../api/users-api';
import { PASSWORD_HINT, passwordLengthOk } from '@/lib/validation';
import { userMessages } from '../messages';

function validate({ password }: { password: string }): FieldErrors<{ password: string }> {
  if (!password) return { password: 'Enter a new password.' };
  if (!passwordLengthOk(password)) return { password: `Use ${PASSWORD_HINT}` };
  return {};
}

/** The form inside 'Update Password'; mounted fresh, so the input is empty on every open. */
function UpdatePasswordForm({ email, onDone }: { email: string; onDone: () => void }) {
  const form = useForm({ password: '' }, { clearErrorOnChange: true });

  // Nothing is sent without an email and a new password (spec §5).
  const onSubmit = form.onSubmit(
    (values) => (email ? validate(values) : { password: 'Enter a new password.' }),
    async ({ password }) => {
      if (await resetOrgUserPassword(email, password)) {
        toast.success(userMessages.passwordUpdated);
        onDone();
      } else {
        toast.error(userMessages.passwordFailed);
      }
      return null;
    },
  );

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Update Password">
      {/* Tells password managers whose password this is. */}
      <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
      <NewPasswordField
        label="New Password"
        name="new_password"
        {...form.field('password')}
        required
      />
      <FormActions onCancel={onDone} busy={form.busy} />
    </form>
  );
}

/** Opens per user email (spec §4); `email` null means closed. */
export function UpdatePasswordModal({
  email,
  onClose,
}: {
  email: string | null;
  onClose: () => void;
}) {
  return (
    <Modal
      open={email !== null}
      title="Update Password"
      description={email ? <>Set a new password for {email}.</> : null}
      onClose={onClose}
    >
      {email !== null ? <UpdatePasswordForm key={email} email={email} onDone={onClose} /> : null}
    </Modal>
  );
}
