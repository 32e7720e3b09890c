import { useState } from 'react';
import { toast } from 'react-toastify/unstyled';
import { ErrorAlert } from '@/components/ui/alert';
import { ApiResultView } from '@/components/ui/api-result-view';
import { Button } from '@/components/ui/button';
import { CardSection } from '@/components/ui/card-section';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { DataTable, type Column } from '@/components/ui/data-table';
import { FormActions } from '@/components/ui/form-actions';
import { SelectField, TextField } from '@/components/ui/form-field';
import { useApiResult } from '@/hooks/use-api-result';
import { useForm } from '@/hooks/use-form';
import { formatDateTime } from '@/lib/format';
import {
  createReservation,
  fetchReservations,
  releaseReservation,
  type NewReservation,
  type Reservation,
} from '../api/inventory-api';
import type { Catalogue } from '../api/use-catalogue';
import { formatDay } from '../expiry';
import { useSubmissionKeys } from '../idempotency';
import {
  emptyReservationForm,
  validateReservationForm,
  type ReservationFormValues,
} from '../forms';
import { QUANTITY_PLACES, QUANTITY_DIGITS, formatQuantity, parseDecimal } from '../quantities';
import { locationOptions, productOptions } from './choices';
import { ConflictAlert, conflictOf, type Conflict } from './conflict';

/** The lots a reservation took, first expiry first out, as a list. */
function FefoLines({ reservation, catalogue }: { reservation: Reservation; catalogue: Catalogue }) {
  return (
    <ol className="fefo-lines">
      {reservation.lines.map((line) => (
        <li key={`${line.location_id}/${line.lot_id}`}>
          {formatQuantity(line.quantity)} from lot <span className="mono">{line.lot_number}</span>
          {line.expires_on ? ` (expires ${formatDay(line.expires_on)})` : ' (no expiry)'} in{' '}
          {catalogue.locationPath(line.location_id)}
        </li>
      ))}
    </ol>
  );
}

function ReservationForm({
  catalogue,
  onReserved,
}: {
  catalogue: Catalogue;
  onReserved: (reservation: Reservation) => void;
}) {
  const form = useForm<ReservationFormValues>(emptyReservationForm(), {
    clearErrorOnChange: true,
  });
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const keys = useSubmissionKeys();

  const onSubmit = form.onSubmit(validateReservationForm, async (values) => {
    setConflict(null);
    const body: NewReservation = {
      product_id: values.product_id,
      quantity: parseDecimal(values.quantity, QUANTITY_PLACES, QUANTITY_DIGITS) ?? values.quantity,
      reference: values.reference.trim(),
    };
    if (values.location_id) body.location_id = values.location_id;
    const result = await createReservation(body, keys.keyFor(body));
    if (result.ok) {
      keys.done();
      form.reset();
      onReserved(result.data);
      return null;
    }
    const found = conflictOf(result);
    if (found) {
      setConflict(found);
      return null;
    }
    return result.message;
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Reserve stock">
      {form.serverError ? <ErrorAlert>{form.serverError}</ErrorAlert> : null}
      {conflict ? <ConflictAlert conflict={conflict} /> : null}
      <div className="form-grid">
        <SelectField
          label="Product to reserve"
          options={productOptions(catalogue, 'Choose a product')}
          {...form.field('product_id')}
        />
        <TextField
          label="Quantity to reserve"
          inputMode="decimal"
          autoComplete="off"
          spellCheck={false}
          {...form.field('quantity')}
        />
        <SelectField
          label="Reserve in (optional)"
          options={locationOptions(catalogue, 'Any location')}
          hint="A location reserves from it and the locations below it."
          {...form.field('location_id')}
        />
        <TextField
          label="Reserved for"
          autoComplete="off"
          hint="An order or a job, such as SO-1042."
          {...form.field('reference')}
        />
      </div>
      <FormActions busy={form.busy} submitLabel="Reserve" />
    </form>
  );
}

/**
 * "Reservations": reserve a product's stock, first expiry first out, from
 * released, unexpired lots (the answer shows which lots it took), and
 * release a reservation. `canRecord` hides the form and the release buttons
 * from those who may only read.
 */
export function ReservationsSection({
  catalogue,
  version,
  canRecord,
  onChanged,
}: {
  catalogue: Catalogue;
  version: number;
  canRecord: boolean;
  onChanged: () => void;
}) {
  const [reserved, setReserved] = useState<Reservation | null>(null);
  return (
    <CardSection title="Reservations">
      {canRecord ? (
        <ReservationForm
          catalogue={catalogue}
          onReserved={(reservation) => {
            setReserved(reservation);
            toast.success(`Reserved ${formatQuantity(reservation.quantity)}`);
            onChanged();
          }}
        />
      ) : null}
      {reserved ? (
        <div className="alert alert--success" role="status">
          <div>
            Reserved {formatQuantity(reserved.quantity)} of{' '}
            {catalogue.productName(reserved.product_id)} for {reserved.reference}, first expiry
            first out:
            <FefoLines reservation={reserved} catalogue={catalogue} />
          </div>
        </div>
      ) : null}
      <h3>Active reservations</h3>
      <ReservationList
        key={version}
        catalogue={catalogue}
        canRecord={canRecord}
        onReleased={() => {
          setReserved(null);
          onChanged();
        }}
      />
    </CardSection>
  );
}

function ReservationList({
  catalogue,
  canRecord,
  onReleased,
}: {
  catalogue: Catalogue;
  canRecord: boolean;
  onReleased: () => void;
}) {
  const { result, reload } = useApiResult(fetchReservations);
  const [releasing, setReleasing] = useState<Reservation | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function release(reservation: Reservation) {
    setBusy(true);
    setError(null);
    const done = await releaseReservation(reservation.id);
    setBusy(false);
    setReleasing(null);
    if (!done.ok) {
      setError(done.message);
      return;
    }
    toast.success(`Reservation for ${reservation.reference} released`);
    onReleased();
  }

  const columns: Column<Reservation>[] = [
    { header: 'Reserved for', cell: (r) => r.reference },
    { header: 'Product', cell: (r) => catalogue.productName(r.product_id) },
    { header: 'Quantity', className: 'num', cell: (r) => formatQuantity(r.quantity) },
    {
      header: 'Lots (first expiry first out)',
      cell: (r) => <FefoLines reservation={r} catalogue={catalogue} />,
    },
    { header: 'Since', cell: (r) => formatDateTime(r.created_at) },
  ];

  return (
    <>
      {error ? <ErrorAlert>{error}</ErrorAlert> : null}
      <ApiResultView result={result} onRetry={reload} loadingLabel="Loading the reservations…">
        {(reservations) => (
          <DataTable
            label="Active reservations"
            columns={columns}
            rows={reservations.filter((r) => r.status === 'active')}
            rowKey={(r) => r.id}
            empty="No stock is reserved."
            actions={
              canRecord
                ? (r) => (
                    <Button variant="secondary" onClick={() => setReleasing(r)}>
                      Release<span className="visually-hidden"> {r.reference}</span>
                    </Button>
                  )
                : undefined
            }
          />
        )}
      </ApiResultView>
      <ConfirmDialog
        open={releasing !== null}
        title="Release this reservation?"
        message={
          releasing
            ? `The ${formatQuantity(releasing.quantity)} reserved for ${releasing.reference} become available to others again.`
            : ''
        }
        confirmLabel="Release"
        busy={busy}
        onConfirm={() => releasing && void release(releasing)}
        onCancel={() => setReleasing(null)}
      />
    </>
  );
}
