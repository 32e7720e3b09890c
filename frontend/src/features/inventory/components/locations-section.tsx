import { toast } from 'react-toastify/unstyled';
import { ErrorAlert } from '@/components/ui/alert';
import { CardSection } from '@/components/ui/card-section';
import { DataTable, type Column } from '@/components/ui/data-table';
import { FormActions } from '@/components/ui/form-actions';
import { SelectField, TextField } from '@/components/ui/form-field';
import { useForm } from '@/hooks/use-form';
import { createLocation, type Location, type NewLocation } from '../api/inventory-api';
import type { Catalogue } from '../api/use-catalogue';
import {
  LOCATION_CODE_HINT,
  LOCATION_KINDS,
  LOCATION_KIND_LABELS,
  emptyLocationForm,
  validateLocationForm,
  type LocationFormValues,
} from '../forms';
import type { TreeEntry } from '../location-tree';
import { locationOptions } from './choices';

const KIND_OPTIONS = LOCATION_KINDS.map((kind) => ({
  value: kind,
  label: LOCATION_KIND_LABELS[kind],
}));

const COLUMNS: Column<TreeEntry<Location>>[] = [
  {
    header: 'Code',
    cell: (entry) => (
      <span className="tree-name mono" style={{ paddingInlineStart: `${entry.depth * 1.25}rem` }}>
        {entry.depth > 0 ? <span aria-hidden="true">└ </span> : null}
        {entry.location.code}
      </span>
    ),
  },
  { header: 'Name', cell: (entry) => entry.location.name },
  {
    header: 'Kind',
    cell: (entry) =>
      LOCATION_KIND_LABELS[entry.location.kind as keyof typeof LOCATION_KIND_LABELS] ??
      entry.location.kind,
  },
  { header: 'Path', cell: (entry) => <span className="mono">{entry.path}</span> },
];

function LocationForm({
  catalogue,
  onAdded,
}: {
  catalogue: Catalogue;
  onAdded: (location: Location) => void;
}) {
  const form = useForm<LocationFormValues>(emptyLocationForm(), { clearErrorOnChange: true });
  const onSubmit = form.onSubmit(validateLocationForm, async (values) => {
    const body: NewLocation = {
      code: values.code.trim(),
      name: values.name.trim(),
      kind: values.kind as NewLocation['kind'],
    };
    if (values.parent_id) body.parent_id = values.parent_id;
    const result = await createLocation(body);
    if (!result.ok) return result.message;
    toast.success(`Location ${result.data.code} added`);
    form.reset();
    onAdded(result.data);
    return null;
  });
  return (
    <form onSubmit={onSubmit} noValidate aria-label="Add a location">
      {form.serverError ? <ErrorAlert>{form.serverError}</ErrorAlert> : null}
      <div className="form-grid">
        <TextField
          label="Code"
          autoComplete="off"
          spellCheck={false}
          hint={`${LOCATION_CODE_HINT} Unique in your organisation.`}
          {...form.field('code')}
        />
        <TextField label="Name" autoComplete="off" {...form.field('name')} />
        <SelectField label="Kind" options={KIND_OPTIONS} {...form.field('kind')} />
        <SelectField
          label="Inside (optional)"
          options={locationOptions(catalogue, 'Nothing: a top-level location')}
          {...form.field('parent_id')}
        />
      </div>
      <FormActions busy={form.busy} submitLabel="Add location" />
    </form>
  );
}

/**
 * "Locations": the tree of warehouses, zones, bins, quarantine and scrap
 * areas; admins and managers (`canManage`) add to it.
 */
export function LocationsSection({
  catalogue,
  canManage,
  onAdded,
}: {
  catalogue: Catalogue;
  canManage: boolean;
  onAdded: (location: Location) => void;
}) {
  return (
    <CardSection title="Locations">
      {canManage ? <LocationForm catalogue={catalogue} onAdded={onAdded} /> : null}
      <DataTable
        label="Locations, as a tree"
        columns={COLUMNS}
        rows={catalogue.tree}
        rowKey={(entry) => entry.location.id}
        empty={
          canManage
            ? 'No locations yet: add a warehouse first.'
            : 'No locations yet: an admin or a manager adds them.'
        }
      />
    </CardSection>
  );
}
