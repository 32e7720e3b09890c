import { ApiResultView } from '@/components/ui/api-result-view';
import { DataTable, type Column } from '@/components/ui/data-table';
import { formatDateTime } from '@/lib/format';
import {
  quoted,
  useGenealogy,
  type DownstreamLot,
  type Genealogy,
  type UpstreamLot,
} from '../api/recalls-api';

function LotCell({ lot }: { lot: { number: string; product_name: string } }) {
  return (
    <>
      <span className="mono">{lot.number}</span>
      <br />
      <span className="muted">{lot.product_name}</span>
    </>
  );
}

function StatusWord({ status }: { status: string }) {
  const tone =
    status === 'released'
      ? 'badge--success'
      : status === 'quarantine'
        ? 'badge--warning'
        : 'badge--danger';
  return <span className={`badge ${tone}`}>{status}</span>;
}

const UP_COLUMNS: readonly Column<UpstreamLot>[] = [
  { header: 'Depth', cell: (l) => l.depth, className: 'num' },
  { header: 'Lot', cell: (l) => <LotCell lot={l} /> },
  { header: 'Status', cell: (l) => <StatusWord status={l.status} /> },
  { header: 'Used', cell: (l) => l.quantity_used, className: 'num' },
  {
    header: 'Received from',
    cell: (l) =>
      l.receipts.length === 0
        ? '—'
        : l.receipts.map((r) => (
            <div key={`${r.receipt_id}-${r.quantity}`}>
              {r.supplier_name} · {quoted('PO', r.purchase_order_number)} ·{' '}
              {formatDateTime(r.received_at)}
            </div>
          )),
  },
];

const DOWN_COLUMNS: readonly Column<DownstreamLot>[] = [
  { header: 'Depth', cell: (l) => l.depth, className: 'num' },
  { header: 'Lot', cell: (l) => <LotCell lot={l} /> },
  { header: 'Status', cell: (l) => <StatusWord status={l.status} /> },
  { header: 'Made with', cell: (l) => l.quantity_used, className: 'num' },
  {
    header: 'Shipped to',
    cell: (l) =>
      l.shipments.length === 0
        ? '—'
        : l.shipments.map((s) => (
            <div key={s.shipment_id}>
              {s.customer_name} · {quoted('SH', s.shipment_number)} · {s.quantity} ({s.status})
            </div>
          )),
  },
];

/** Both directions of a genealogy already loaded. */
export function GenealogyTables({ genealogy }: { genealogy: Genealogy }) {
  const own = genealogy.shipments;
  return (
    <div className="recall-genealogy">
      {genealogy.truncated ? (
        <p className="alert alert--info" role="status">
          The genealogy goes deeper than {genealogy.max_depth} steps: the lots beyond are not
          listed.
        </p>
      ) : null}
      <h3>Upstream: what lot {genealogy.lot.number} was made from</h3>
      {genealogy.receipts.length > 0 ? (
        <p>
          Received from{' '}
          {genealogy.receipts
            .map((r) => `${r.supplier_name} (${quoted('PO', r.purchase_order_number)})`)
            .join(', ')}
          .
        </p>
      ) : null}
      <DataTable
        label={`Upstream of lot ${genealogy.lot.number}`}
        columns={UP_COLUMNS}
        rows={genealogy.upstream}
        rowKey={(l) => l.id}
        empty="No component lots recorded."
      />
      <h3>Downstream: the lots made from it</h3>
      {own.length > 0 ? (
        <p>
          The lot itself was shipped to{' '}
          {own.map((s) => `${s.customer_name} (${quoted('SH', s.shipment_number)})`).join(', ')}.
        </p>
      ) : null}
      <DataTable
        label={`Downstream of lot ${genealogy.lot.number}`}
        columns={DOWN_COLUMNS}
        rows={genealogy.downstream}
        rowKey={(l) => l.id}
        empty="No lot was made from it."
      />
    </div>
  );
}

/** A lot's genealogy, loaded and shown. */
export function GenealogyView({ lotId }: { lotId: string }) {
  const { result, reload } = useGenealogy(lotId);
  return (
    <ApiResultView result={result} onRetry={reload} loadingLabel="Loading the genealogy">
      {(genealogy) => <GenealogyTables genealogy={genealogy} />}
    </ApiResultView>
  );
}
