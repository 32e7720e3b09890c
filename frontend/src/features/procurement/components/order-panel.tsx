import { useState } from 'react';
import { toast } from 'react-toastify/unstyled';
import { ErrorAlert } from '@/components/ui/alert';
import { ApiResultView } from '@/components/ui/api-result-view';
import { Button } from '@/components/ui/button';
import { CardSection } from '@/components/ui/card-section';
import { DataTable, type Column } from '@/components/ui/data-table';
import { useApiResult } from '@/hooks/use-api-result';
import { formatDate, formatDateTime } from '@/lib/format';
import { formatMoney, formatQuantity } from '@/lib/quantities';
import {
  cancelOrder,
  confirmOrder,
  fetchOrder,
  type Location,
  type OrderDetail,
  type OrderLine,
} from '../api/procurement-api';
import { BillsSection } from './bills-section';
import { ReceiptForm } from './receipt-form';
import { StatusBadge } from './status-badge';

function lineColumns(currency: string): readonly Column<OrderLine>[] {
  return [
    { header: '#', cell: (l) => l.position },
    { header: 'Product', cell: (l) => l.product_name },
    { header: 'Ordered', className: 'num', cell: (l) => formatQuantity(l.quantity) },
    {
      header: 'Unit price',
      className: 'num',
      cell: (l) => formatMoney(l.unit_price, currency),
    },
    { header: 'Received', className: 'num', cell: (l) => formatQuantity(l.received_quantity) },
    { header: 'Billed', className: 'num', cell: (l) => formatQuantity(l.billed_quantity) },
  ];
}

/** Confirm or cancel, as the order's status allows (admins and managers). */
function Steps({ order, onChanged }: { order: OrderDetail; onChanged: () => void }) {
  const [busy, setBusy] = useState<'confirm' | 'cancel' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const canConfirm = order.status === 'draft';
  const canCancel =
    (order.status === 'draft' || order.status === 'confirmed') && order.receipts.length === 0;
  if (!canConfirm && !canCancel) return null;
  async function run(step: 'confirm' | 'cancel') {
    setBusy(step);
    const result = step === 'confirm' ? await confirmOrder(order.id) : await cancelOrder(order.id);
    setBusy(null);
    if (!result.ok) {
      setError(result.message);
      return;
    }
    setError(null);
    toast.success(`${order.number} ${step === 'confirm' ? 'confirmed' : 'cancelled'}`);
    onChanged();
  }
  return (
    <div className="proc-actions">
      {error ? <ErrorAlert>{error}</ErrorAlert> : null}
      {canConfirm ? (
        <Button busy={busy === 'confirm'} onClick={() => void run('confirm')}>
          Confirm {order.number}
        </Button>
      ) : null}
      {canCancel ? (
        <Button variant="danger" busy={busy === 'cancel'} onClick={() => void run('cancel')}>
          Cancel {order.number}
        </Button>
      ) : null}
    </div>
  );
}

function Detail({
  order,
  locations,
  canBuy,
  canReceive,
  isAdmin,
  onChanged,
}: {
  order: OrderDetail;
  locations: readonly Location[];
  canBuy: boolean;
  canReceive: boolean;
  isAdmin: boolean;
  onChanged: () => void;
}) {
  const receives =
    order.status === 'confirmed' ||
    order.status === 'partially_received' ||
    order.status === 'received';
  return (
    <>
      <dl className="proc-facts">
        <div>
          <dt>Supplier</dt>
          <dd>{order.supplier_name}</dd>
        </div>
        <div>
          <dt>Status</dt>
          <dd>
            <StatusBadge status={order.status} />
          </dd>
        </div>
        <div>
          <dt>Expected on</dt>
          <dd>{formatDate(order.expected_on)}</dd>
        </div>
        <div>
          <dt>Total</dt>
          <dd>{formatMoney(order.total, order.currency)}</dd>
        </div>
      </dl>
      {canBuy ? <Steps order={order} onChanged={onChanged} /> : null}
      <DataTable
        label={`Lines of ${order.number}`}
        columns={lineColumns(order.currency)}
        rows={order.lines}
        rowKey={(l) => l.id}
      />
      <section aria-label="Receipts">
        <h3>Receipts</h3>
        {order.receipts.length === 0 ? <p className="muted">Nothing received yet.</p> : null}
        <ul className="proc-list">
          {order.receipts.map((r) => (
            <li key={r.id} className="proc-item">
              <p>
                {formatDateTime(r.received_at)} into <span className="mono">{r.location_code}</span>
              </p>
              <ul>
                {r.lines.map((l) => {
                  const line = order.lines.find((x) => x.id === l.line_id);
                  return (
                    <li key={l.line_id}>
                      {formatQuantity(l.quantity)} {line?.product_name ?? ''}, lot{' '}
                      <span className="mono">{l.lot_number}</span>
                      {l.expires_on ? `, expires ${formatDate(l.expires_on)}` : ''} ·{' '}
                      <span className="badge">{l.lot_status}</span>
                    </li>
                  );
                })}
              </ul>
            </li>
          ))}
        </ul>
        {canReceive && receives ? (
          <>
            <h4>Receive goods</h4>
            <ReceiptForm
              key={order.receipts.length}
              order={order}
              locations={locations}
              onReceived={onChanged}
            />
          </>
        ) : null}
        {order.status === 'draft' ? (
          <p className="muted">Goods are received once the order is confirmed.</p>
        ) : null}
      </section>
      <BillsSection order={order} canBuy={canBuy} isAdmin={isAdmin} onChanged={onChanged} />
    </>
  );
}

/** One purchase order: its lines, steps, receipts and bills. */
export function OrderPanel({
  orderId,
  locations,
  canBuy,
  canReceive,
  isAdmin,
  onOrderChanged,
}: {
  orderId: string;
  locations: readonly Location[];
  canBuy: boolean;
  canReceive: boolean;
  isAdmin: boolean;
  onOrderChanged: () => void;
}) {
  const { result, reload } = useApiResult(() => fetchOrder(orderId));
  const changed = () => {
    reload();
    onOrderChanged();
  };
  return (
    <CardSection title="Purchase order">
      <ApiResultView result={result} onRetry={reload} loadingLabel="Loading the purchase order">
        {(order) => (
          <>
            <h3 className="proc-order-number">{order.number}</h3>
            <Detail
              order={order}
              locations={locations}
              canBuy={canBuy}
              canReceive={canReceive}
              isAdmin={isAdmin}
              onChanged={changed}
            />
          </>
        )}
      </ApiResultView>
    </CardSection>
  );
}
