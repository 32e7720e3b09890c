import { DownloadMinimalisticIcon } from '@solar-icons/react/linear/download-minimalistic';
import { useState, type FormEvent } from 'react';
import { toast } from 'react-toastify/unstyled';
import { ErrorAlert } from '@/components/ui/alert';
import { ApiResultView } from '@/components/ui/api-result-view';
import { Button } from '@/components/ui/button';
import { CardSection } from '@/components/ui/card-section';
import { DataTable, type Column } from '@/components/ui/data-table';
import { FormActions } from '@/components/ui/form-actions';
import { SelectField, TextAreaField } from '@/components/ui/form-field';
import { useApiResult } from '@/hooks/use-api-result';
import { formatDateTime } from '@/lib/format';
import { useAppStore } from '@/stores/app-store';
import { canRecall } from '../access';
import {
  affectedCsvUrl,
  createRecall,
  fetchLots,
  fetchRecall,
  fetchRecalls,
  quoted,
  recallNumber,
  type Recall,
  type RecallSummary,
} from '../api/recalls-api';
import { GenealogyView } from './genealogy-view';
import './recalls.css';

type RecalledLot = Recall['lots'][number];
type RecalledShipment = Recall['shipments'][number];
type Customer = Recall['customers'][number];

const LOT_COLUMNS: readonly Column<RecalledLot>[] = [
  { header: 'Depth', cell: (l) => l.depth, className: 'num' },
  { header: 'Lot', cell: (l) => <span className="mono">{l.number}</span> },
  { header: 'Product', cell: (l) => l.product_name },
  {
    header: 'Status',
    cell: (l) => (l.status_changed ? 'Recalled now' : `Was ${l.previous_status} already`),
  },
];

const SHIPMENT_COLUMNS: readonly Column<RecalledShipment>[] = [
  { header: 'Shipment', cell: (s) => quoted('SH', s.shipment_number) },
  { header: 'Customer', cell: (s) => s.customer_name },
  { header: 'Lot', cell: (s) => <span className="mono">{s.lot_number}</span> },
  { header: 'Quantity', cell: (s) => s.quantity, className: 'num' },
  { header: 'Status', cell: (s) => s.status },
];

const CUSTOMER_COLUMNS: readonly Column<Customer>[] = [
  { header: 'Customer', cell: (c) => c.name },
  { header: 'Quantity', cell: (c) => c.quantity, className: 'num' },
];

/** What a recall covers: its lots, shipments and customers, and its CSV. */
export function RecallResult({ recall }: { recall: Recall }) {
  const label = recallNumber(recall.number);
  return (
    <div className="recall-result" aria-label={`Recall ${label}`} role="group">
      <p>
        <strong>{label}</strong> · {formatDateTime(recall.created_at)} · {recall.created_by_name}
        <br />
        {recall.reason}
      </p>
      <p>
        {recall.lots.length} lot(s) recalled, {recall.shipments.length} shipment line(s),{' '}
        {recall.customers.length} customer(s) to contact
        {recall.released_reservations.length > 0
          ? `, ${recall.released_reservations.length} reservation(s) released`
          : ''}
        .
      </p>
      {recall.truncated ? (
        <p className="alert alert--info" role="status">
          The genealogy went deeper than the recall could follow: recall the deepest lots listed
          too.
        </p>
      ) : null}
      <p>
        <a className="btn btn--secondary" href={affectedCsvUrl(recall.id)} download>
          <DownloadMinimalisticIcon />
          Download the affected list (CSV)
        </a>
      </p>
      <h3>Customers to contact</h3>
      <DataTable
        label={`Customers of ${label}`}
        columns={CUSTOMER_COLUMNS}
        rows={recall.customers}
        rowKey={(c) => c.customer_id}
        empty="No shipment had left with these lots."
      />
      <h3>Shipments</h3>
      <DataTable
        label={`Shipments of ${label}`}
        columns={SHIPMENT_COLUMNS}
        rows={recall.shipments}
        rowKey={(s) => `${s.shipment_id}-${s.lot_id}`}
        empty="None."
      />
      <h3>Lots</h3>
      <DataTable
        label={`Lots of ${label}`}
        columns={LOT_COLUMNS}
        rows={recall.lots}
        rowKey={(l) => l.id}
      />
    </div>
  );
}

/** The confirmation: a reason, then the recall (admins and managers). */
function RecallForm({
  lotId,
  lotNumber,
  onRecalled,
}: {
  lotId: string;
  lotNumber: string;
  onRecalled: (recall: Recall) => void;
}) {
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    const why = reason.trim();
    setProblem(why ? null : 'Say why the lot is recalled: it is kept with the recall.');
    if (!why) return;
    setBusy(true);
    const result = await createRecall({ lot_id: lotId, reason: why });
    setBusy(false);
    if (result.ok) {
      toast.success(`Lot ${lotNumber} is recalled (${recallNumber(result.data.number)}).`);
      setReason('');
      onRecalled(result.data);
    } else {
      setError(result.message);
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-label={`Recall lot ${lotNumber}`}>
      {error ? <ErrorAlert>{error}</ErrorAlert> : null}
      <p>
        Recalling lot <span className="mono">{lotNumber}</span> sets it and every lot made from it
        (listed downstream) to <strong>recalled</strong>, releases their stock reservations, and
        warns consumers who scan their codes. It cannot be undone here.
      </p>
      <TextAreaField
        label="Reason"
        hint="Required; kept with the recall, in each lot’s history and in the affected list."
        value={reason}
        onChange={(e) => setReason(e.target.value)}
        error={problem}
        maxLength={500}
        rows={2}
      />
      <FormActions busy={busy} submitLabel={`Recall lot ${lotNumber}`} />
    </form>
  );
}

const RECALL_COLUMNS: readonly Column<RecallSummary>[] = [
  { header: 'Recall', cell: (r) => recallNumber(r.number) },
  { header: 'When', cell: (r) => formatDateTime(r.created_at) },
  {
    header: 'Lot',
    cell: (r) => (
      <>
        <span className="mono">{r.lot_number}</span> · {r.product_name}
      </>
    ),
  },
  { header: 'Reason', cell: (r) => r.reason },
  { header: 'Lots', cell: (r) => r.lots, className: 'num' },
  { header: 'Customers', cell: (r) => r.customers, className: 'num' },
];

/** The past recalls; one opens with what it covers. */
function PastRecalls({ reloadKey }: { reloadKey: number }) {
  const { result, reload } = useApiResult(fetchRecalls);
  const [open, setOpen] = useState<Recall | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [seen, setSeen] = useState(reloadKey);
  if (seen !== reloadKey) {
    setSeen(reloadKey);
    reload();
  }

  async function show(id: string) {
    setError(null);
    const got = await fetchRecall(id);
    if (got.ok) setOpen(got.data);
    else setError(got.message);
  }

  return (
    <>
      {error ? <ErrorAlert>{error}</ErrorAlert> : null}
      <ApiResultView result={result} onRetry={reload} loadingLabel="Loading the recalls">
        {({ recalls }) => (
          <DataTable
            label="Past recalls"
            columns={RECALL_COLUMNS}
            rows={recalls}
            rowKey={(r) => r.id}
            empty="No recall yet."
            actions={(r) => (
              <Button variant="secondary" onClick={() => void show(r.id)}>
                Open {recallNumber(r.number)}
              </Button>
            )}
          />
        )}
      </ApiResultView>
      {open ? <RecallResult recall={open} /> : null}
    </>
  );
}

/**
 * The recall screen of `/Logistics`: pick a lot, see what it was made from
 * and what was made from it (and where that went) on one screen, recall it
 * with a reason (admins and managers), see and download what the recall
 * reached, and the past recalls.
 */
export function RecallsSection() {
  const role = useAppStore((s) => s.auth.user?.role);
  const mayRecall = canRecall(role);
  const lots = useApiResult(fetchLots);
  const [lotId, setLotId] = useState('');
  const [recall, setRecall] = useState<Recall | null>(null);
  const [recalls, setRecalls] = useState(0);

  return (
    <>
      <CardSection title="Recall a lot">
        <ApiResultView result={lots.result} onRetry={lots.reload} loadingLabel="Loading the lots">
          {({ lots: list, more }) => {
            const lot = list.find((l) => l.id === lotId);
            return (
              <>
                <SelectField
                  label="Lot"
                  hint={more ? `The newest ${list.length} lots are listed.` : undefined}
                  value={lotId}
                  onChange={(e) => {
                    setLotId(e.target.value);
                    setRecall(null);
                  }}
                  options={[
                    { value: '', label: list.length ? 'Choose a lot' : 'No lots yet' },
                    ...list.map((l) => ({
                      value: l.id,
                      label: `${l.number} · ${l.product_name} (${l.status})`,
                    })),
                  ]}
                />
                {lot ? (
                  <>
                    <GenealogyView key={`${lot.id}-${recalls}`} lotId={lot.id} />
                    {recall ? (
                      <RecallResult recall={recall} />
                    ) : mayRecall ? (
                      <RecallForm
                        lotId={lot.id}
                        lotNumber={lot.number}
                        onRecalled={(r) => {
                          setRecall(r);
                          setRecalls((n) => n + 1);
                        }}
                      />
                    ) : (
                      <p className="muted">Only admins and managers can start a recall.</p>
                    )}
                  </>
                ) : null}
              </>
            );
          }}
        </ApiResultView>
      </CardSection>
      <CardSection title="Past recalls">
        <PastRecalls reloadKey={recalls} />
      </CardSection>
    </>
  );
}
