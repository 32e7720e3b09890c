import { toast } from 'react-toastify/unstyled';
import { ErrorAlert } from '@/components/ui/alert';
import { CardSection } from '@/components/ui/card-section';
import { DataTable, type Column } from '@/components/ui/data-table';
import { FormActions } from '@/components/ui/form-actions';
import { TextField } from '@/components/ui/form-field';
import { useForm } from '@/hooks/use-form';
import { createSupplier, type NewSupplier, type Supplier } from '../api/procurement-api';

const COLUMNS: readonly Column<Supplier>[] = [
  { header: 'Name', cell: (s) => s.name },
  { header: 'Country', cell: (s) => s.country },
  { header: 'GLN', cell: (s) => (s.gln ? <span className="mono">{s.gln}</span> : '—') },
  { header: 'Email', cell: (s) => s.email ?? '—' },
];

interface SupplierForm extends Record<string, string> {
  name: string;
  country: string;
  gln: string;
  email: string;
}

function validate(v: SupplierForm) {
  const errors: Partial<Record<keyof SupplierForm, string>> = {};
  if (!v.name.trim()) errors.name = 'Enter the supplier’s name.';
  if (!/^[A-Za-z]{2}$/.test(v.country.trim())) {
    errors.country = 'Enter the country as two letters (ISO 3166), such as DE.';
  }
  if (v.gln.trim() && !/^\d{13}$/.test(v.gln.trim())) {
    errors.gln = 'A GLN is 13 digits; leave it empty if you do not know it.';
  }
  return errors;
}

function AddSupplier({ onAdded }: { onAdded: (s: Supplier) => void }) {
  const form = useForm<SupplierForm>(
    { name: '', country: '', gln: '', email: '' },
    { clearErrorOnChange: true },
  );
  const onSubmit = form.onSubmit(validate, async (v) => {
    const body: NewSupplier = { name: v.name.trim(), country: v.country.trim().toUpperCase() };
    if (v.gln.trim()) body.gln = v.gln.trim();
    if (v.email.trim()) body.email = v.email.trim();
    const result = await createSupplier(body);
    if (!result.ok) return result.message;
    toast.success(`Supplier ${result.data.name} added`);
    form.reset();
    onAdded(result.data);
    return null;
  });
  return (
    <form onSubmit={onSubmit} noValidate aria-label="Add a supplier">
      {form.serverError ? <ErrorAlert>{form.serverError}</ErrorAlert> : null}
      <div className="form-grid">
        <TextField label="Name" autoComplete="off" {...form.field('name')} />
        <TextField
          label="Country"
          autoComplete="off"
          hint="Two letters, such as DE."
          maxLength={2}
          {...form.field('country')}
        />
        <TextField
          label="GLN (optional)"
          inputMode="numeric"
          autoComplete="off"
          {...form.field('gln')}
        />
        <TextField label="Email (optional)" type="email" {...form.field('email')} />
      </div>
      <FormActions busy={form.busy} submitLabel="Add supplier" />
    </form>
  );
}

/** "Suppliers": the organisation's suppliers; admins and managers add to them. */
export function SuppliersSection({
  suppliers,
  canBuy,
  onAdded,
}: {
  suppliers: readonly Supplier[];
  canBuy: boolean;
  onAdded: (s: Supplier) => void;
}) {
  return (
    <CardSection title="Suppliers">
      {canBuy ? <AddSupplier onAdded={onAdded} /> : null}
      <DataTable
        label="Suppliers"
        columns={COLUMNS}
        rows={suppliers}
        rowKey={(s) => s.id}
        empty={
          canBuy
            ? 'No suppliers yet: add the first one above.'
            : 'No suppliers yet: an admin or a manager adds them.'
        }
      />
    </CardSection>
  );
}
