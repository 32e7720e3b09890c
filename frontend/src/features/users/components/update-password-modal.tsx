import { useState, type FormEvent } from 'react';
import { toast } from 'react-toastify';
import { CancelSubmitActions } from '@/components/ui/form-actions';
import { PasswordField } from '@/components/ui/form-field';
import { Modal } from '@/components/ui/modal';
import { resetOrgUserPassword } from '../api/users-api';
import { PASSWORD_HINT, passwordLengthOk } from '@/lib/validation';
import { userMessages } from '../messages';

/** The form inside 'Update Password'; mounted fresh, so the input is empty on every open. */
function UpdatePasswordForm({ email, onDone }: { email: string; onDone: () => void }) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // Nothing is sent without an email and a new password (spec §5).
    if (!email || !password) {
      setError('Enter a new password.');
      return;
    }
    if (!passwordLengthOk(password)) {
      setError(`Use ${PASSWORD_HINT}`);
      return;
    }
    setBusy(true);
    const ok = await resetOrgUserPassword(email, password);
    setBusy(false);
    if (ok) {
      toast.success(userMessages.passwordUpdated);
      onDone();
    } else {
      toast.error(userMessages.passwordFailed);
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Update Password">
      {/* Tells password managers whose password this is. */}
      <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
      <PasswordField
        label="New Password"
        name="new_password"
        autoComplete="new-password"
        value={password}
        onChange={(e) => {
          setPassword(e.target.value);
          setError(null);
        }}
        error={error}
        hint={PASSWORD_HINT}
        required
      />
      <CancelSubmitActions onCancel={onDone} busy={busy} />
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
