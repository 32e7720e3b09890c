import { useState, type FormEvent } from 'react';
import { toast } from 'react-toastify/unstyled';
import { ErrorAlert } from '@/components/ui/alert';
import { ApiResultView } from '@/components/ui/api-result-view';
import { Button } from '@/components/ui/button';
import { CardSection } from '@/components/ui/card-section';
import { ChoiceField } from '@/components/ui/choice-field';
import { FormActions } from '@/components/ui/form-actions';
import { SelectField, TextAreaField, TextField } from '@/components/ui/form-field';
import { formatDateTime } from '@/lib/format';
import {
  createNonconformance,
  updateNonconformance,
  useNonconformances,
  type Lot,
  type NcState,
  type Nonconformance,
  type Severity,
} from '../api/quality-api';

/** The board's columns, in the one order a nonconformance moves through. */
export const NC_STATES: readonly { value: NcState; label: string }[] = [
  { value: 'open', label: 'Open' },
  { value: 'investigating', label: 'Investigating' },
  { value: 'action', label: 'Action' },
  { value: 'verification', label: 'Verification' },
  { value: 'closed', label: 'Closed' },
];

type Field = 'root_cause' | 'corrective_action' | 'verification_note';

const FIELDS: readonly { name: Field; label: string; from: NcState }[] = [
  { name: 'root_cause', label: 'Root cause', from: 'action' },
  { name: 'corrective_action', label: 'Corrective action', from: 'verification' },
  { name: 'verification_note', label: 'Verification note', from: 'closed' },
];

function stateLabel(state: NcState): string {
  return NC_STATES.find((s) => s.value === state)?.label ?? state;
}

function nextState(state: NcState): NcState | null {
  const i = NC_STATES.findIndex((s) => s.value === state);
  return NC_STATES[i + 1]?.value ?? null;
}

/** The fields a nonconformance must have to enter `to` (as the server requires). */
function fieldsFor(to: NcState): Field[] {
  const rank = NC_STATES.findIndex((s) => s.value === to);
  return FIELDS.filter((f) => NC_STATES.findIndex((s) => s.value === f.from) <= rank).map(
    (f) => f.name,
  );
}

const SEVERITIES: readonly { value: Severity; label: string; hint: string }[] = [
  { value: 'minor', label: 'Minor', hint: 'No effect on safety or use.' },
  { value: 'major', label: 'Major', hint: 'May affect use; needs action.' },
  { value: 'critical', label: 'Critical', hint: 'May harm someone; act now.' },
];

/** Moves a card to its next state, with the fields that state needs. */
function MoveForm({
  nc,
  to,
  onMoved,
  onCancel,
}: {
  nc: Nonconformance;
  to: NcState;
  onMoved: (nc: Nonconformance) => void;
  onCancel: () => void;
}) {
  const needed = fieldsFor(to);
  const [values, setValues] = useState<Record<Field, string>>({
    root_cause: nc.root_cause ?? '',
    corrective_action: nc.corrective_action ?? '',
    verification_note: nc.verification_note ?? '',
  });
  const [problems, setProblems] = useState<Partial<Record<Field, string>>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found: Partial<Record<Field, string>> = {};
    for (const name of needed) {
      if (!values[name].trim()) found[name] = `Needed to move to ${stateLabel(to).toLowerCase()}.`;
    }
    setProblems(found);
    setError(null);
    if (Object.keys(found).length > 0) return;
    const change: Parameters<typeof updateNonconformance>[1] = { version: nc.version, state: to };
    for (const name of needed) {
      if (values[name] !== (nc[name] ?? '')) change[name] = values[name];
    }
    setBusy(true);
    const result = await updateNonconformance(nc.id, change);
    setBusy(false);
    if (result.ok) {
      toast.success(`“${nc.title}” moved to ${stateLabel(to).toLowerCase()}.`);
      onMoved(result.data);
    } else {
      setError(result.message);
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-label={`Move ${nc.title} to ${stateLabel(to)}`}>
      {error ? <ErrorAlert>{error}</ErrorAlert> : null}
      {FIELDS.filter((f) => needed.includes(f.name)).map((f) => (
        <TextAreaField
          key={f.name}
          label={f.label}
          value={values[f.name]}
          onChange={(e) => setValues((v) => ({ ...v, [f.name]: e.target.value }))}
          error={problems[f.name]}
          maxLength={5000}
          rows={2}
        />
      ))}
      <FormActions busy={busy} onCancel={onCancel} submitLabel={`Move to ${stateLabel(to)}`} />
    </form>
  );
}

function NcCard({
  nc,
  canManage,
  onChanged,
}: {
  nc: Nonconformance;
  canManage: boolean;
  onChanged: (nc: Nonconformance) => void;
}) {
  const [moving, setMoving] = useState(false);
  const next = nextState(nc.state);
  const tone =
    nc.severity === 'critical' ? 'badge--danger' : nc.severity === 'major' ? 'badge--warning' : '';
  return (
    <li className="qa-nc">
      <article aria-label={nc.title}>
        <h4 className="qa-nc__title">{nc.title}</h4>
        <p>
          <span className={`badge ${tone}`}>{nc.severity}</span>
          {nc.lot_number ? (
            <span className="muted">
              {' '}
              Lot {nc.lot_number}
              {nc.product_name ? ` · ${nc.product_name}` : ''}
            </span>
          ) : null}
        </p>
        <p className="qa-nc__text">{nc.description}</p>
        <dl className="qa-nc__fields">
          {FIELDS.filter((f) => nc[f.name]).map((f) => (
            <div key={f.name}>
              <dt>{f.label}</dt>
              <dd className="qa-nc__text">{nc[f.name]}</dd>
            </div>
          ))}
        </dl>
        <p className="muted qa-nc__meta">
          Raised by {nc.created_by_name}, {formatDateTime(nc.created_at)}
        </p>
        {canManage && next ? (
          moving ? (
            <MoveForm
              nc={nc}
              to={next}
              onCancel={() => setMoving(false)}
              onMoved={(moved) => {
                setMoving(false);
                onChanged(moved);
              }}
            />
          ) : (
            <Button variant="secondary" onClick={() => setMoving(true)}>
              Move “{nc.title}” to {stateLabel(next).toLowerCase()}
            </Button>
          )
        ) : null}
      </article>
    </li>
  );
}

/** Raises a nonconformance, about the chosen lot or none (admins and managers). */
function RaiseForm({ lot, onRaised }: { lot: Lot | null; onRaised: (nc: Nonconformance) => void }) {
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [severity, setSeverity] = useState<Severity | ''>('');
  const [aboutLot, setAboutLot] = useState('');
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found: Record<string, string> = {};
    if (!title.trim()) found.title = 'Give it a short title.';
    if (!description.trim()) found.description = 'Describe what was found.';
    if (!severity) found.severity = 'Choose how serious it is.';
    setProblems(found);
    setError(null);
    if (Object.keys(found).length > 0 || !severity) return;
    setBusy(true);
    const result = await createNonconformance({
      title: title.trim(),
      description,
      severity,
      ...(aboutLot ? { lot_id: aboutLot } : {}),
    });
    setBusy(false);
    if (result.ok) {
      toast.success(`Nonconformance “${result.data.title}” raised.`);
      setTitle('');
      setDescription('');
      setSeverity('');
      onRaised(result.data);
    } else {
      setError(result.message);
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Raise nonconformance">
      {error ? <ErrorAlert>{error}</ErrorAlert> : null}
      <div className="form-grid">
        <TextField
          label="Title"
          value={title}
          onChange={(e) => setTitle(e.target.value)}
          error={problems.title}
          maxLength={200}
          autoComplete="off"
        />
        <SelectField
          label="Lot"
          value={aboutLot}
          onChange={(e) => setAboutLot(e.target.value)}
          options={[
            { value: '', label: 'No lot' },
            ...(lot ? [{ value: lot.id, label: `Lot ${lot.number} (${lot.product_name})` }] : []),
          ]}
          hint="Open a lot above to raise it about that lot."
        />
      </div>
      <TextAreaField
        label="Description"
        value={description}
        onChange={(e) => setDescription(e.target.value)}
        error={problems.description}
        maxLength={5000}
        rows={3}
      />
      <ChoiceField
        label="Severity"
        name="severity"
        options={SEVERITIES}
        value={severity}
        onChange={setSeverity}
        error={problems.severity}
      />
      <FormActions busy={busy} submitLabel="Raise nonconformance" />
    </form>
  );
}

/**
 * The nonconformance board: a column per state, each card moved to its next
 * state (never skipped, never back) with the fields that state needs.
 */
export function NonconformanceBoard({ canManage, lot }: { canManage: boolean; lot: Lot | null }) {
  const { result, reload, update } = useNonconformances();

  function replace(nc: Nonconformance) {
    update((list) => ({
      nonconformances: list.nonconformances.some((n) => n.id === nc.id)
        ? list.nonconformances.map((n) => (n.id === nc.id ? nc : n))
        : [nc, ...list.nonconformances],
    }));
  }

  return (
    <CardSection title="Nonconformances">
      <ApiResultView result={result} onRetry={reload} loadingLabel="Loading the nonconformances">
        {({ nonconformances }) => (
          <div className="qa-board">
            {NC_STATES.map((state) => {
              const cards = nonconformances.filter((n) => n.state === state.value);
              const headingId = `qa-board-${state.value}`;
              return (
                <section key={state.value} className="qa-board__column" aria-labelledby={headingId}>
                  <h3 id={headingId}>
                    {state.label} <span className="muted">({cards.length})</span>
                  </h3>
                  {cards.length === 0 ? (
                    <p className="muted">None.</p>
                  ) : (
                    <ul className="qa-board__cards">
                      {cards.map((nc) => (
                        <NcCard key={nc.id} nc={nc} canManage={canManage} onChanged={replace} />
                      ))}
                    </ul>
                  )}
                </section>
              );
            })}
          </div>
        )}
      </ApiResultView>
      {canManage ? (
        <>
          <h3>Raise a nonconformance</h3>
          <RaiseForm lot={lot} onRaised={replace} />
        </>
      ) : null}
    </CardSection>
  );
}
