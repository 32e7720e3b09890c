import { toast } from 'react-toastify/unstyled';
import { ErrorAlert } from '@/components/ui/alert';
import { CardSection } from '@/components/ui/card-section';
import { DataTable, type Column } from '@/components/ui/data-table';
import { FormActions } from '@/components/ui/form-actions';
import { TextField } from '@/components/ui/form-field';
import { useForm } from '@/hooks/use-form';
import { createCustomer, type Customer, type NewCustomer } from '../api/logistics-api';

interface CustomerFormValues extends Record<string, string> {
  name: string;
  gln: string;
  email: string;
  country: string;
}

const EMPTY: CustomerFormValues = { name: '', gln: '', email: '', country: '' };

function validate(values: CustomerFormValues) {
  return {
    name: values.name.trim() ? undefined : 'Enter the customer’s name.',
    gln:
      values.gln.trim() === '' || /^\d{13}$/.test(values.gln.trim())
        ? undefined
        : 'A GLN is 13 digits; leave it empty if the customer has none.',
    country: /^[A-Za-z]{2}$/.test(values.country.trim())
      ? undefined
      : 'Enter the two-letter country code, such as DE or IN.',
  };
}

function CustomerForm({ onAdded }: { onAdded: (customer: Customer) => void }) {
  const form = useForm<CustomerFormValues>(EMPTY, { clearErrorOnChange: true });
  const onSubmit = form.onSubmit(validate, async (values) => {
    const body: NewCustomer = {
      name: values.name.trim(),
      country: values.country.trim().toUpperCase(),
    };
    if (values.gln.trim()) body.gln = values.gln.trim();
    if (values.email.trim()) body.email = values.email.trim();
    const result = await createCustomer(body);
    if (!result.ok) return result.message;
    form.reset();
    toast.success(`Customer ${result.data.name} added`);
    onAdded(result.data);
    return null;
  });
  return (
    <form onSubmit={onSubmit} noValidate aria-label="Add a customer">
      {form.serverError ? <ErrorAlert>{form.serverError}</ErrorAlert> : null}
      <div className="form-grid">
        <TextField label="Customer name" autoComplete="organization" {...form.field('name')} />
        <TextField
          label="GLN (optional)"
          inputMode="numeric"
          autoComplete="off"
          hint="13 digits. Shipments to this customer name it as their destination."
          {...form.field('gln')}
        />
        <TextField label="Email (optional)" type="email" {...form.field('email')} />
        <TextField
          label="Country"
          autoComplete="country"
          hint="Two letters, such as DE."
          {...form.field('country')}
        />
      </div>
      <FormActions busy={form.busy} submitLabel="Add customer" />
    </form>
  );
}

const COLUMNS: Column<Customer>[] = [
  { header: 'Name', cell: (c) => c.name },
  { header: 'GLN', cell: (c) => (c.gln ? <span className="mono">{c.gln}</span> : '—') },
  { header: 'Country', cell: (c) => c.country },
  { header: 'Email', cell: (c) => c.email ?? '—' },
];

/** "Customers": who the organisation ships to, and (for admins and managers) a form to add one. */
export function CustomersSection({
  customers,
  canAdd,
  onAdded,
}: {
  customers: Customer[];
  canAdd: boolean;
  onAdded: (customer: Customer) => void;
}) {
  return (
    <CardSection title="Customers">
      <DataTable
        label="Customers"
        columns={COLUMNS}
        rows={customers}
        rowKey={(c) => c.id}
        empty="No customers yet."
      />
      {canAdd ? (
        <details className="section">
          <summary>Add a customer</summary>
          <CustomerForm onAdded={onAdded} />
        </details>
      ) : null}
    </CardSection>
  );
}
