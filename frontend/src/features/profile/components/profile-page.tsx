import { toast } from 'react-toastify/unstyled';
import { ErrorAlert } from '@/components/ui/alert';
import { ApiResultView } from '@/components/ui/api-result-view';
import { CardSection } from '@/components/ui/card-section';
import { FormActions } from '@/components/ui/form-actions';
import { NewPasswordField, PasswordField } from '@/components/ui/form-field';
import { PageHeader } from '@/components/ui/page-header';
import { useApiResult } from '@/hooks/use-api-result';
import { useForm, type FieldErrors } from '@/hooks/use-form';
import { formatDate, roleLabel } from '@/lib/format';
import { PASSWORD_HINT, passwordLengthOk } from '@/lib/validation';
import { useAppStore } from '@/stores/app-store';
import { changeOwnPassword, fetchMe } from '../api/profile-api';

type PasswordForm = { current: string; next: string; confirm: string };

function validate({ current, next, confirm }: PasswordForm): FieldErrors<PasswordForm> {
  const found: FieldErrors<PasswordForm> = {};
  if (!current) found.current = 'Enter your current password.';
  if (!passwordLengthOk(next)) found.next = `Use ${PASSWORD_HINT}`;
  if (confirm !== next) found.confirm = 'The two new passwords do not match.';
  return found;
}

function ChangePasswordForm({ email }: { email: string }) {
  const form = useForm<PasswordForm>({ current: '', next: '', confirm: '' });

  const onSubmit = form.onSubmit(validate, async ({ current, next }) => {
    const result = await changeOwnPassword(current, next);
    if (!result.ok) return result.message;
    form.reset();
    toast.success('Your password has been changed.');
    return null;
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Change password">
      {/* Tells password managers whose password this is. */}
      <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
      {form.serverError ? <ErrorAlert>{form.serverError}</ErrorAlert> : null}
      <PasswordField
        label="Current password"
        autoComplete="current-password"
        {...form.field('current')}
      />
      <div className="form-grid">
        <NewPasswordField label="New password" {...form.field('next')} />
        <PasswordField
          label="Repeat new password"
          autoComplete="new-password"
          {...form.field('confirm')}
        />
      </div>
      <FormActions busy={form.busy} submitLabel="Change password" />
    </form>
  );
}

/** `/profile`: who I am, and my own password. */
export function ProfilePage() {
  const { result: me } = useApiResult(fetchMe);
  const email = useAppStore((s) => s.auth.user?.email ?? '');

  return (
    <>
      <PageHeader title="Profile" description="Your account and how you sign in." />
      <CardSection title="Your details">
        <ApiResultView result={me}>
          {(data) => (
            <dl className="dl">
              <dt>Name</dt>
              <dd>{data.name}</dd>
              <dt>Email</dt>
              <dd>{data.email}</dd>
              <dt>Role</dt>
              <dd>{roleLabel(data.role)}</dd>
              <dt>Organisation</dt>
              <dd>{data.organisationName ?? 'brandops platform'}</dd>
              <dt>Member since</dt>
              <dd>{formatDate(data.createdAt)}</dd>
            </dl>
          )}
        </ApiResultView>
      </CardSection>
      <CardSection title="Change password">
        <ChangePasswordForm email={email} />
      </CardSection>
    </>
  );
}
