import { useEffect, useState, type FormEvent } from 'react';
import { toast } from 'react-toastify';
import { ErrorAlert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { PasswordField } from '@/components/ui/form-field';
import { PageHeader } from '@/components/ui/page-header';
import { LoadingBlock } from '@/components/ui/spinner';
import { formatDate, roleLabel } from '@/lib/format';
import { PASSWORD_HINT, passwordLengthOk } from '@/lib/validation';
import { useAppStore } from '@/stores/app-store';
import { changeOwnPassword, fetchMe, type Loaded, type Me } from '../api/profile-api';

function ChangePasswordForm({ email }: { email: string }) {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<{ current?: string; next?: string; confirm?: string }>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found: typeof errors = {};
    if (!current) found.current = 'Enter your current password.';
    if (!passwordLengthOk(next)) {
      found.next = `Use ${PASSWORD_HINT}`;
    }
    if (confirm !== next) found.confirm = 'The two new passwords do not match.';
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    setServerError(null);
    const result = await changeOwnPassword(current, next);
    setBusy(false);
    if (result.ok) {
      setCurrent('');
      setNext('');
      setConfirm('');
      toast.success('Your password has been changed.');
    } else {
      setServerError(result.message);
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Change password">
      {/* Tells password managers whose password this is. */}
      <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
      {serverError ? <ErrorAlert>{serverError}</ErrorAlert> : null}
      <PasswordField
        label="Current password"
        autoComplete="current-password"
        value={current}
        onChange={(e) => setCurrent(e.target.value)}
        error={errors.current ?? null}
      />
      <div className="form-grid">
        <PasswordField
          label="New password"
          autoComplete="new-password"
          value={next}
          onChange={(e) => setNext(e.target.value)}
          error={errors.next ?? null}
          hint={PASSWORD_HINT}
        />
        <PasswordField
          label="Repeat new password"
          autoComplete="new-password"
          value={confirm}
          onChange={(e) => setConfirm(e.target.value)}
          error={errors.confirm ?? null}
        />
      </div>
      <div className="form-actions">
        <Button type="submit" busy={busy}>
          Change password
        </Button>
      </div>
    </form>
  );
}

/** `/profile`: who I am, and my own password. */
export function ProfilePage() {
  const [me, setMe] = useState<Loaded<Me> | null>(null);
  const email = useAppStore((s) => s.auth.user?.email ?? '');

  useEffect(() => {
    let active = true;
    void fetchMe().then((result) => {
      if (active) setMe(result);
    });
    return () => {
      active = false;
    };
  }, []);

  return (
    <>
      <PageHeader title="Profile" description="Your account and how you sign in." />
      <section className="card" aria-labelledby="profile-details">
        <h2 className="card__title" id="profile-details">
          Your details
        </h2>
        {me === null ? <LoadingBlock /> : null}
        {me && !me.ok ? <ErrorAlert>{me.message}</ErrorAlert> : null}
        {me?.ok ? (
          <dl className="dl">
            <dt>Name</dt>
            <dd>{me.data.name}</dd>
            <dt>Email</dt>
            <dd>{me.data.email}</dd>
            <dt>Role</dt>
            <dd>{roleLabel(me.data.role)}</dd>
            <dt>Organisation</dt>
            <dd>{me.data.organisationName ?? 'brandops platform'}</dd>
            <dt>Member since</dt>
            <dd>{formatDate(me.data.createdAt)}</dd>
          </dl>
        ) : null}
      </section>
      <section className="card" aria-labelledby="profile-password">
        <h2 className="card__title" id="profile-password">
          Change password
        </h2>
        <ChangePasswordForm email={email} />
      </section>
    </>
  );
}
