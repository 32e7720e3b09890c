import { useState, type FormEvent } from 'react';
import { toast } from 'react-toastify/unstyled';
import { ErrorAlert } from '@/components/ui/alert';
import { ApiResultView } from '@/components/ui/api-result-view';
import { Button } from '@/components/ui/button';
import { CardSection } from '@/components/ui/card-section';
import { DataTable, type Column } from '@/components/ui/data-table';
import { FormActions } from '@/components/ui/form-actions';
import { TextField } from '@/components/ui/form-field';
import { useApiResult } from '@/hooks/use-api-result';
import { formatDate } from '@/lib/format';
import {
  cancelOrder,
  completeOrder,
  fetchOrder,
  startOrder,
  type Order,
} from '../api/manufacturing-api';
import { codesProblem, quantityProblem } from '../forms';

type Consumed = NonNullable<Order['consumed']>[number];
type Component = Order['components'][number];

const COMPONENT_COLUMNS: readonly Column<Component>[] = [
  { header: 'Component', cell: (c) => c.product_name },
  { header: 'Needed for the order', cell: (c) => c.required, className: 'num' },
];

const CONSUMED_COLUMNS: readonly Column<Consumed>[] = [
  { header: 'Product', cell: (c) => c.product_name },
  { header: 'Lot', cell: (c) => <span className="mono">{c.lot_number}</span> },
  { header: 'Expires', cell: (c) => (c.expires_on ? formatDate(c.expires_on) : '—') },
  { header: 'Consumed', cell: (c) => c.quantity, className: 'num' },
];

/** Completing an order: how much was made, and optionally how many codes to generate. */
function CompleteForm({ order, onDone }: { order: Order; onDone: (order: Order) => void }) {
  const [produced, setProduced] = useState(order.quantity);
  const [codes, setCodes] = useState('');
  const [problems, setProblems] = useState<{ produced?: string; codes?: string }>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = {
      produced: quantityProblem(produced) ?? undefined,
      codes: codesProblem(codes) ?? undefined,
    };
    setProblems(found);
    setError(null);
    if (found.produced || found.codes) return;
    setBusy(true);
    const result = await completeOrder(order.id, {
      produced_quantity: produced.trim(),
      ...(codes.trim() ? { codes: Number(codes.trim()) } : {}),
    });
    setBusy(false);
    if (result.ok) {
      toast.success(`${order.number} completed: lot ${order.output_lot_number} produced.`);
      onDone(result.data);
    } else {
      setError(result.message);
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-label={`Complete ${order.number}`}>
      {error ? <ErrorAlert>{error}</ErrorAlert> : null}
      <div className="form-grid">
        <TextField
          label="Produced quantity"
          inputMode="decimal"
          value={produced}
          onChange={(e) => setProduced(e.target.value)}
          error={problems.produced}
          hint="The components are consumed in proportion, earliest expiry first."
        />
        <TextField
          label="Codes to generate (optional)"
          inputMode="numeric"
          value={codes}
          onChange={(e) => setCodes(e.target.value)}
          error={problems.codes}
          hint="Starts a code job for the output lot, from your plan’s code quota."
        />
      </div>
      <FormActions busy={busy} submitLabel="Complete order" />
    </form>
  );
}

function OrderDetail({
  initial,
  canPlan,
  onChanged,
}: {
  initial: Order;
  canPlan: boolean;
  onChanged: () => void;
}) {
  const [order, setOrder] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  function changed(next: Order) {
    setOrder(next);
    onChanged();
  }

  async function act(run: () => ReturnType<typeof startOrder>, done: string) {
    setBusy(true);
    setError(null);
    const result = await run();
    setBusy(false);
    if (result.ok) {
      toast.success(done);
      changed(result.data);
    } else {
      setError(result.message);
    }
  }

  return (
    <CardSection title={`${order.number}: ${order.product_name}`}>
      {error ? <ErrorAlert>{error}</ErrorAlert> : null}
      <dl className="dl">
        <dt>Status</dt>
        <dd>{order.status.replace('_', ' ')}</dd>
        <dt>Quantity</dt>
        <dd>{order.quantity}</dd>
        <dt>BOM version</dt>
        <dd>v{order.bom_version}</dd>
        <dt>Location</dt>
        <dd>{order.location_code}</dd>
        <dt>Output lot</dt>
        <dd className="mono">{order.output_lot_number}</dd>
        {order.produced_quantity ? (
          <>
            <dt>Produced</dt>
            <dd>{order.produced_quantity}</dd>
            <dt>Unit cost</dt>
            <dd>
              {order.unit_cost} {order.currency}
            </dd>
          </>
        ) : null}
        {order.code_job_id ? (
          <>
            <dt>Code job</dt>
            <dd className="mono">{order.code_job_id}</dd>
          </>
        ) : null}
      </dl>
      <DataTable
        label={`Components of ${order.number}`}
        columns={COMPONENT_COLUMNS}
        rows={order.components}
        rowKey={(c) => c.product_id}
      />
      <div className="form-actions">
        {order.status === 'planned' ? (
          <Button
            busy={busy}
            onClick={() => act(() => startOrder(order.id), `${order.number} started.`)}
          >
            Start order
          </Button>
        ) : null}
        {canPlan && (order.status === 'planned' || order.status === 'in_progress') ? (
          <Button
            variant="secondary"
            busy={busy}
            onClick={() => act(() => cancelOrder(order.id), `${order.number} cancelled.`)}
          >
            Cancel order
          </Button>
        ) : null}
      </div>
      {order.status === 'in_progress' ? <CompleteForm order={order} onDone={changed} /> : null}
      {order.status === 'completed' ? (
        <DataTable
          label={`Lots consumed by ${order.number}`}
          columns={CONSUMED_COLUMNS}
          rows={order.consumed ?? []}
          rowKey={(c) => c.lot_id}
          empty="No lots are recorded for this order."
        />
      ) : null}
    </CardSection>
  );
}

/** One order, loaded with the lots it consumed: its actions by state. */
export function OrderPanel({
  id,
  canPlan,
  onChanged,
}: {
  id: string;
  canPlan: boolean;
  onChanged: () => void;
}) {
  const { result, reload } = useApiResult(() => fetchOrder(id));
  return (
    <ApiResultView result={result} onRetry={reload} loadingLabel="Loading the order">
      {(order) => <OrderDetail initial={order} canPlan={canPlan} onChanged={onChanged} />}
    </ApiResultView>
  );
}
