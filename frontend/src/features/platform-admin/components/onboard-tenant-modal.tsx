import { toast } from 'react-toastify/unstyled';
import { ErrorAlert } from '@/components/ui/alert';
import { FormActions } from '@/components/ui/form-actions';
import { NewPasswordField, SelectField, TextField } from '@/components/ui/form-field';
import { Modal } from '@/components/ui/modal';
import { useForm, type FieldErrors } from '@/hooks/use-form';
import { formatNumber } from '@/lib/format';
import { EMAIL_PATTERN, PASSWORD_HINT, passwordLengthOk } from '@/lib/validation';
import { createTenant, type NewTenant, type Tenant } from '../api/tenants-api';
import {
  LIMIT_DEFAULTS,
  limitError,
  limitRange,
  parseLimit,
  type OptionalLimitKey,
} from '../limits';
import { LimitField } from './limit-field';

const TENANT_ID = /^[A-Za-z][A-Za-z0-9_-]{1,29}$/;

type Kind = NewTenant['kind'];
const KINDS: readonly { value: Kind; label: string }[] = [
  { value: 'brand', label: 'Brand' },
  { value: 'client', label: 'Client' },
];

type OnboardValues = {
  clientId: string;
  name: string;
  kind: Kind;
  userLimit: string;
  productLimit: string;
  codeQuota: string;
  adminName: string;
  adminEmail: string;
  adminPassword: string;
};

function validate(v: OnboardValues): FieldErrors<OnboardValues> {
  const found: FieldErrors<OnboardValues> = {};
  if (!TENANT_ID.test(v.clientId.trim())) {
    found.clientId = 'Start with a letter; use 2 to 30 letters, digits, - or _.';
  }
  if (!v.name.trim()) found.name = 'Enter the organisation’s name.';
  const userLimit = limitError('userLimit', v.userLimit);
  if (userLimit) found.userLimit = userLimit;
  const productLimit = limitError('productLimit', v.productLimit, { optional: true });
  if (productLimit) found.productLimit = productLimit;
  const codeQuota = limitError('codeQuota', v.codeQuota, { optional: true });
  if (codeQuota) found.codeQuota = codeQuota;
  if (!v.adminName.trim()) found.adminName = 'Enter the first admin’s name.';
  if (!EMAIL_PATTERN.test(v.adminEmail.trim())) found.adminEmail = 'Enter a valid email address.';
  if (!passwordLengthOk(v.adminPassword)) {
    found.adminPassword = `Use ${PASSWORD_HINT}`;
  }
  return found;
}

/** `{productLimit: 250}`, or nothing when the field is empty (the server's default). */
function optionalLimit(key: OptionalLimitKey, raw: string): Partial<NewTenant> {
  const value = parseLimit(key, raw);
  return value === null ? {} : { [key]: value };
}

/** The server's default, named in the hint of an optional limit. */
function defaultHint(key: OptionalLimitKey): string {
  return `Optional: ${limitRange(key)}; leave empty for the default, ${formatNumber(LIMIT_DEFAULTS[key])}.`;
}

function OnboardForm({
  onDone,
  onCreated,
}: {
  onDone: () => void;
  onCreated: (t: Tenant) => void;
}) {
  const form = useForm<OnboardValues>({
    clientId: '',
    name: '',
    kind: 'brand',
    userLimit: '10',
    productLimit: '',
    codeQuota: '',
    adminName: '',
    adminEmail: '',
    adminPassword: '',
  });

  const onSubmit = form.onSubmit(validate, async (v) => {
    const result = await createTenant({
      clientId: v.clientId.trim(),
      name: v.name.trim(),
      kind: v.kind,
      userLimit: Number(v.userLimit.trim()),
      ...optionalLimit('productLimit', v.productLimit),
      ...optionalLimit('codeQuota', v.codeQuota),
      admin: { name: v.adminName.trim(), email: v.adminEmail.trim(), password: v.adminPassword },
    });
    if (!result.ok) return result.message;
    toast.success(`${result.data.name} is ready; its admin can sign in now.`);
    onCreated(result.data);
    onDone();
    return null;
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Onboard a tenant">
      {form.serverError ? <ErrorAlert>{form.serverError}</ErrorAlert> : null}
      <div className="form-grid">
        <TextField
          label="Tenant id"
          {...form.field('clientId')}
          hint="Permanent; used in the organisation’s URLs."
          autoComplete="off"
        />
        <TextField label="Organisation name" {...form.field('name')} autoComplete="off" />
        <SelectField label="Kind" {...form.field('kind')} options={KINDS} />
        <LimitField name="userLimit" {...form.field('userLimit')} />
        <LimitField
          name="productLimit"
          {...form.field('productLimit')}
          hint={defaultHint('productLimit')}
        />
        <LimitField name="codeQuota" {...form.field('codeQuota')} hint={defaultHint('codeQuota')} />
      </div>
      <h3 className="card__title">First admin</h3>
      <TextField label="Admin name" {...form.field('adminName')} autoComplete="off" />
      <TextField
        label="Admin email"
        type="email"
        {...form.field('adminEmail')}
        autoComplete="off"
      />
      <NewPasswordField
        label="Admin password"
        {...form.field('adminPassword')}
        hint={`${PASSWORD_HINT} Share it with the admin privately.`}
      />
      <FormActions onCancel={onDone} busy={form.busy} submitLabel="Create tenant" />
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
