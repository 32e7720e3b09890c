import { toast } from 'react-toastify/unstyled';
import { ErrorAlert } from '@/components/ui/alert';
import { FormActions } from '@/components/ui/form-actions';
import { Modal } from '@/components/ui/modal';
import { useForm } from '@/hooks/use-form';
import { formatNumber } from '@/lib/format';
import { updateTenantLimits, type Tenant } from '../api/tenants-api';
import {
  LOWERING_NOTE,
  changedLimits,
  limitRange,
  limitValues,
  validateLimits,
  type LimitValues,
} from '../limits';
import { LimitField } from './limit-field';

/** The form inside 'Edit limits'; mounted fresh for each tenant, pre-filled with its limits. */
function EditLimitsForm({
  tenant,
  onDone,
  onUpdated,
}: {
  tenant: Tenant;
  onDone: () => void;
  onUpdated: (tenant: Tenant) => void;
}) {
  const form = useForm<LimitValues>(limitValues(tenant), { clearErrorOnChange: true });

  const onSubmit = form.onSubmit(validateLimits, async (values) => {
    // Only what changed is sent, so a limit someone else set meanwhile stays.
    const changes = changedLimits(tenant, values);
    if (!changes) {
      onDone();
      return null;
    }
    const result = await updateTenantLimits(tenant.clientId, changes);
    if (!result.ok) return result.message;
    toast.success(`Limits updated for ${result.data.name}`);
    onUpdated(result.data);
    onDone();
    return null;
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Edit limits">
      {form.serverError ? <ErrorAlert>{form.serverError}</ErrorAlert> : null}
      <LimitField
        name="userLimit"
        {...form.field('userLimit')}
        hint={`${limitRange('userLimit')}; ${formatNumber(tenant.userCount)} in use now.`}
      />
      <LimitField name="productLimit" {...form.field('productLimit')} />
      <LimitField
        name="codeQuota"
        {...form.field('codeQuota')}
        hint={`${limitRange('codeQuota')} codes in all.`}
      />
      <p className="muted">{LOWERING_NOTE}</p>
      <FormActions onCancel={onDone} busy={form.busy} submitLabel="Save limits" />
    </form>
  );
}

/** Opens for one tenant; `tenant` null means closed. */
export function EditLimitsModal({
  tenant,
  onClose,
  onUpdated,
}: {
  tenant: Tenant | null;
  onClose: () => void;
  onUpdated: (tenant: Tenant) => void;
}) {
  return (
    <Modal
      open={tenant !== null}
      title="Edit limits"
      description={tenant ? `Plan limits of ${tenant.name} (${tenant.clientId}).` : null}
      onClose={onClose}
    >
      {tenant ? (
        <EditLimitsForm
          key={tenant.clientId}
          tenant={tenant}
          onDone={onClose}
          onUpdated={onUpdated}
        />
      ) : null}
    </Modal>
  );
}
