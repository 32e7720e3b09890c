import { DownloadMinimalisticIcon } from '@solar-icons/react/linear/download-minimalistic';
import { useState, type FormEvent } from 'react';
import { toast } from 'react-toastify/unstyled';
import { ErrorAlert } from '@/components/ui/alert';
import { ApiResultView } from '@/components/ui/api-result-view';
import { CardSection } from '@/components/ui/card-section';
import { DataTable, type Column } from '@/components/ui/data-table';
import { FormActions } from '@/components/ui/form-actions';
import { SelectField, TextAreaField } from '@/components/ui/form-field';
import { formatDate, formatDateTime } from '@/lib/format';
import {
  certificateUrl,
  changeLotStatus,
  useInspections,
  type Inspection,
  type Lot,
  type LotStatus,
} from '../api/quality-api';
import { InspectionForm } from './inspection-form';
import { LOT_STATUSES, StatusBadge } from './status-badge';

type Check = Inspection['checks'][number];

function limits(check: Check): string {
  if (check.min !== undefined && check.max !== undefined) return `${check.min} to ${check.max}`;
  if (check.min !== undefined) return `≥ ${check.min}`;
  if (check.max !== undefined) return `≤ ${check.max}`;
  return `= ${check.expected ?? ''}`;
}

const CHECK_COLUMNS: readonly Column<Check>[] = [
  { header: 'Parameter', cell: (c) => c.parameter },
  { header: 'Limits', cell: limits },
  { header: 'Value', cell: (c) => c.value },
  {
    header: 'Result',
    cell: (c) => (
      <span className={`badge ${c.passed ? 'badge--success' : 'badge--danger'}`}>
        {c.passed ? 'Pass' : 'Fail'}
      </span>
    ),
  },
];

/** Changes the lot's status with a reason (admins and managers). */
function StatusChangeForm({
  lot,
  status,
  onChanged,
}: {
  lot: Lot;
  status: LotStatus;
  onChanged: (status: LotStatus) => void;
}) {
  const [to, setTo] = useState<LotStatus>(status);
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    const why = reason.trim();
    setProblem(why ? null : 'Say why the status changes: it is kept in the lot’s history.');
    if (!why) return;
    setBusy(true);
    const result = await changeLotStatus(lot.id, { status: to, reason: why });
    setBusy(false);
    if (result.ok) {
      toast.success(`Lot ${lot.number} is ${to}.`);
      setReason('');
      onChanged(to);
    } else {
      setError(result.message);
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Change lot status">
      {error ? <ErrorAlert>{error}</ErrorAlert> : null}
      <div className="form-grid">
        <SelectField
          label="New status"
          value={to}
          onChange={(e) => setTo(e.target.value as LotStatus)}
          options={LOT_STATUSES.map((s) => ({ value: s.value, label: s.label }))}
        />
        <TextAreaField
          label="Reason"
          hint="Required; kept in the lot’s history with your name."
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          error={problem}
          maxLength={500}
          rows={2}
        />
      </div>
      <FormActions busy={busy} submitLabel="Change status" />
    </form>
  );
}

/** One inspection: its verdict, who recorded it and its checks. */
function InspectionView({ inspection }: { inspection: Inspection }) {
  const passed = inspection.verdict === 'pass';
  return (
    <article
      className="qa-inspection"
      aria-label={`Inspection of ${formatDateTime(inspection.inspected_at)}`}
    >
      <p>
        <span className={`badge ${passed ? 'badge--success' : 'badge--danger'}`}>
          {passed ? 'Passed' : 'Failed'}
        </span>{' '}
        {formatDateTime(inspection.inspected_at)} · {inspection.inspected_by_name}
      </p>
      <DataTable
        label={`Checks of the inspection of ${formatDateTime(inspection.inspected_at)}`}
        columns={CHECK_COLUMNS}
        rows={inspection.checks}
        rowKey={(c) => String(c.position)}
      />
    </article>
  );
}

/**
 * One lot: its status (and a status change for admins and managers), its
 * inspections with the certificate of analysis, and a new inspection.
 */
export function LotPanel({
  lot,
  canManage,
  onLotChanged,
}: {
  lot: Lot;
  canManage: boolean;
  onLotChanged: () => void;
}) {
  const [status, setStatus] = useState<LotStatus>(lot.status);
  const { result, reload } = useInspections(lot.id);

  function changed(to: LotStatus) {
    setStatus(to);
    reload();
    onLotChanged();
  }

  return (
    <CardSection title={`Lot ${lot.number}`}>
      <dl className="qa-facts">
        <div>
          <dt>Product</dt>
          <dd>{lot.product_name}</dd>
        </div>
        <div>
          <dt>Status</dt>
          <dd>
            <StatusBadge status={status} />
          </dd>
        </div>
        <div>
          <dt>Expires</dt>
          <dd>{lot.expires_on ? formatDate(lot.expires_on) : '—'}</dd>
        </div>
      </dl>
      {canManage ? (
        <>
          <h3>Change status</h3>
          <StatusChangeForm key={status} lot={lot} status={status} onChanged={changed} />
        </>
      ) : null}
      <h3>Inspections</h3>
      <ApiResultView result={result} onRetry={reload} loadingLabel="Loading the inspections">
        {({ inspections }) =>
          inspections.length === 0 ? (
            <p className="muted">
              No inspection yet. Its certificate of analysis is available once one is recorded.
            </p>
          ) : (
            <>
              <p>
                <a
                  className="btn btn--secondary qa-download"
                  href={certificateUrl(lot.id)}
                  download
                >
                  <DownloadMinimalisticIcon />
                  Certificate of analysis (PDF)
                </a>
              </p>
              {inspections.map((i) => (
                <InspectionView key={i.id} inspection={i} />
              ))}
            </>
          )
        }
      </ApiResultView>
      <h3>Record an inspection</h3>
      <InspectionForm
        lotId={lot.id}
        lotNumber={lot.number}
        onRecorded={(recorded) => changed(recorded.lot_status)}
      />
    </CardSection>
  );
}
