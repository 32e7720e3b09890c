import { useState } from 'react';
import { toast } from 'react-toastify/unstyled';
import { ErrorAlert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { CardSection } from '@/components/ui/card-section';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { DataTable, type Column } from '@/components/ui/data-table';
import { formatDateTime } from '@/lib/format';
import { actOnShipment, labelUrl, type Shipment, type ShipmentAction } from '../api/logistics-api';

const STATUS_BADGES: Record<Shipment['status'], string> = {
  draft: 'badge',
  shipped: 'badge badge--warning',
  delivered: 'badge badge--success',
  cancelled: 'badge',
};

/** What a shipment holds: each line's product, quantity and the lots picked for it. */
function Contents({ shipment }: { shipment: Shipment }) {
  return (
    <ul className="shipment-contents">
      {shipment.lines.map((line) => (
        <li key={line.position}>
          {line.quantity} × {line.product_name}
          {shipment.packages.length > 1 ? ` (package ${line.package})` : ''}
          {line.picks.length > 0 ? ': ' : ''}
          {line.picks.map((p, i) => (
            <span key={`${p.lot_id}/${p.location_id}`}>
              {i > 0 ? ', ' : ''}
              {p.quantity} from lot <span className="mono">{p.lot_number}</span>
              {p.expires_on ? ` (expires ${p.expires_on})` : ''}
            </span>
          ))}
          {shipment.status === 'draft' && !line.reserved ? (
            <strong> — its reservation was released: cancel and create the shipment again.</strong>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

const CONFIRM: Record<ShipmentAction, { title: string; message: string; label: string }> = {
  ship: {
    title: 'Ship this shipment?',
    message:
      'The reserved stock leaves the location, each package gets its SSCC and the shipping events are recorded. This cannot be undone.',
    label: 'Ship',
  },
  deliver: {
    title: 'Record the delivery?',
    message: 'The customer received every package of this shipment.',
    label: 'Record delivery',
  },
  cancel: {
    title: 'Cancel this draft?',
    message: 'Its reserved stock becomes available to other shipments again.',
    label: 'Cancel shipment',
  },
};

/**
 * "Shipments": the organisation's shipments, newest first, with what each
 * holds and its packages' SSCCs; ship, record the delivery, cancel a draft,
 * and download the SSCC labels of a shipped one.
 */
export function ShipmentsSection({
  shipments,
  mayShip,
  mayCancel,
  onChanged,
}: {
  shipments: Shipment[];
  mayShip: boolean;
  mayCancel: boolean;
  onChanged: (shipment: Shipment) => void;
}) {
  const [pending, setPending] = useState<{ shipment: Shipment; action: ShipmentAction } | null>(
    null,
  );
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function run() {
    if (!pending) return;
    setBusy(true);
    setError(null);
    const result = await actOnShipment(pending.shipment.id, pending.action);
    setBusy(false);
    setPending(null);
    if (!result.ok) {
      setError(result.message);
      return;
    }
    toast.success(`Shipment ${result.data.reference} is ${result.data.status}`);
    onChanged(result.data);
  }

  const columns: Column<Shipment>[] = [
    { header: 'Shipment', cell: (s) => <span className="mono">{s.reference}</span> },
    { header: 'Customer', cell: (s) => s.customer.name },
    {
      header: 'Status',
      cell: (s) => <span className={STATUS_BADGES[s.status]}>{s.status}</span>,
    },
    { header: 'From', cell: (s) => s.from_location_code },
    { header: 'Contents', cell: (s) => <Contents shipment={s} /> },
    {
      header: 'SSCCs',
      cell: (s) =>
        s.packages.some((p) => p.sscc) ? (
          <ul className="shipment-contents">
            {s.packages.map((p) => (
              <li key={p.package} className="mono">
                {p.sscc}
              </li>
            ))}
          </ul>
        ) : (
          <span className="muted">Given when it ships</span>
        ),
    },
    { header: 'Created', cell: (s) => formatDateTime(s.created_at) },
  ];

  function actions(s: Shipment) {
    const ref = <span className="visually-hidden"> {s.reference}</span>;
    return (
      <div className="row-actions">
        {mayShip && s.status === 'draft' ? (
          <Button onClick={() => setPending({ shipment: s, action: 'ship' })}>Ship{ref}</Button>
        ) : null}
        {mayShip && s.status === 'shipped' ? (
          <Button
            variant="secondary"
            onClick={() => setPending({ shipment: s, action: 'deliver' })}
          >
            Record delivery{ref}
          </Button>
        ) : null}
        {s.status === 'shipped' || s.status === 'delivered' ? (
          <a className="btn btn--secondary" href={labelUrl(s.id)} download>
            SSCC labels{ref}
          </a>
        ) : null}
        {mayCancel && s.status === 'draft' ? (
          <Button variant="ghost" onClick={() => setPending({ shipment: s, action: 'cancel' })}>
            Cancel{ref}
          </Button>
        ) : null}
      </div>
    );
  }

  const confirm = pending ? CONFIRM[pending.action] : null;
  return (
    <CardSection title="Shipments">
      {error ? <ErrorAlert>{error}</ErrorAlert> : null}
      <DataTable
        label="Shipments"
        columns={columns}
        rows={shipments}
        rowKey={(s) => s.id}
        empty="No shipments yet."
        actions={actions}
      />
      <ConfirmDialog
        open={pending !== null}
        title={confirm?.title ?? ''}
        message={pending && confirm ? `${pending.shipment.reference}: ${confirm.message}` : ''}
        confirmLabel={confirm?.label ?? ''}
        busy={busy}
        onConfirm={() => void run()}
        onCancel={() => setPending(null)}
      />
    </CardSection>
  );
}
