import { useState, type FormEvent } from 'react';
import { toast } from 'react-toastify/unstyled';
import { ErrorAlert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { FormActions } from '@/components/ui/form-actions';
import { SelectField, TextField } from '@/components/ui/form-field';
import { createInspection, type InspectionRecorded, type NewCheck } from '../api/quality-api';

/** A decimal as the server takes it: up to 12 digits and 6 decimal places. */
const DECIMAL = /^-?[0-9]{1,12}(\.[0-9]{1,6})?$/;
const MAX_CHECKS = 50;

interface CheckRow {
  key: number;
  parameter: string;
  kind: 'limits' | 'expected';
  min: string;
  max: string;
  expected: string;
  value: string;
}

type Problems = Partial<Record<'parameter' | 'min' | 'max' | 'expected' | 'value', string>>;

let nextKey = 0;
function emptyRow(): CheckRow {
  nextKey += 1;
  return { key: nextKey, parameter: '', kind: 'limits', min: '', max: '', expected: '', value: '' };
}

/** What is wrong with a row, as the server would say it. */
function problemsOf(row: CheckRow, others: CheckRow[]): Problems {
  const p: Problems = {};
  const parameter = row.parameter.trim();
  if (!parameter) p.parameter = 'Name what was checked (e.g. pH).';
  else if (others.some((o) => o.parameter.trim().toLowerCase() === parameter.toLowerCase()))
    p.parameter = 'Each parameter once per inspection.';
  const value = row.value.trim();
  if (row.kind === 'limits') {
    const min = row.min.trim();
    const max = row.max.trim();
    if (!min && !max) p.min = 'Give a lower or an upper limit (or both).';
    if (min && !DECIMAL.test(min)) p.min = 'A decimal number such as 6.5.';
    if (max && !DECIMAL.test(max)) p.max = 'A decimal number such as 7.5.';
    if (!p.min && !p.max && min && max && Number(min) > Number(max))
      p.max = 'The upper limit must not be below the lower one.';
    if (!value) p.value = 'Enter the value found.';
    else if (!DECIMAL.test(value)) p.value = 'A decimal number such as 7.1.';
  } else {
    if (!row.expected.trim()) p.expected = 'Enter the text expected (e.g. Clear).';
    if (!value) p.value = 'Enter what was found.';
  }
  return p;
}

function toCheck(row: CheckRow): NewCheck {
  const check: NewCheck = { parameter: row.parameter.trim(), value: row.value.trim() };
  if (row.kind === 'limits') {
    if (row.min.trim()) check.min = row.min.trim();
    if (row.max.trim()) check.max = row.max.trim();
  } else {
    check.expected = row.expected.trim();
  }
  return check;
}

/**
 * Records an inspection of a lot: one row per check, each with limits (a
 * decimal range) or an expected text, and the value found. The server
 * decides the verdict: a failure holds the lot, a pass releases it from
 * quarantine.
 */
export function InspectionForm({
  lotId,
  lotNumber,
  onRecorded,
}: {
  lotId: string;
  lotNumber: string;
  onRecorded: (recorded: InspectionRecorded) => void;
}) {
  const [rows, setRows] = useState<CheckRow[]>(() => [emptyRow()]);
  const [problems, setProblems] = useState<Record<number, Problems>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  function change(key: number, patch: Partial<CheckRow>) {
    setRows((all) => all.map((r) => (r.key === key ? { ...r, ...patch } : r)));
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found: Record<number, Problems> = {};
    rows.forEach((row, i) => {
      const p = problemsOf(row, rows.slice(0, i));
      if (Object.keys(p).length > 0) found[row.key] = p;
    });
    setProblems(found);
    setError(null);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    const result = await createInspection({ lot_id: lotId, checks: rows.map(toCheck) });
    setBusy(false);
    if (result.ok) {
      const { verdict, lot_status } = result.data;
      toast.success(
        `Inspection recorded: ${verdict === 'pass' ? 'passed' : 'failed'}. Lot ${lotNumber} is ${lot_status}.`,
      );
      setRows([emptyRow()]);
      onRecorded(result.data);
    } else {
      setError(result.message);
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Record inspection">
      {error ? <ErrorAlert>{error}</ErrorAlert> : null}
      {rows.map((row, i) => {
        const p = problems[row.key] ?? {};
        return (
          <fieldset key={row.key} className="fieldset qa-check">
            <legend className="field__label">Check {i + 1}</legend>
            <div className="form-grid">
              <TextField
                label="Parameter"
                value={row.parameter}
                onChange={(e) => change(row.key, { parameter: e.target.value })}
                error={p.parameter}
                maxLength={100}
                autoComplete="off"
              />
              <SelectField
                label="Decided by"
                value={row.kind}
                onChange={(e) =>
                  change(row.key, { kind: e.target.value === 'expected' ? 'expected' : 'limits' })
                }
                options={[
                  { value: 'limits', label: 'Limits (min, max)' },
                  { value: 'expected', label: 'Expected text' },
                ]}
              />
              {row.kind === 'limits' ? (
                <>
                  <TextField
                    label="Min"
                    inputMode="decimal"
                    value={row.min}
                    onChange={(e) => change(row.key, { min: e.target.value })}
                    error={p.min}
                    autoComplete="off"
                  />
                  <TextField
                    label="Max"
                    inputMode="decimal"
                    value={row.max}
                    onChange={(e) => change(row.key, { max: e.target.value })}
                    error={p.max}
                    autoComplete="off"
                  />
                </>
              ) : (
                <TextField
                  label="Expected"
                  value={row.expected}
                  onChange={(e) => change(row.key, { expected: e.target.value })}
                  error={p.expected}
                  maxLength={200}
                  autoComplete="off"
                />
              )}
              <TextField
                label="Value found"
                inputMode={row.kind === 'limits' ? 'decimal' : undefined}
                value={row.value}
                onChange={(e) => change(row.key, { value: e.target.value })}
                error={p.value}
                maxLength={200}
                autoComplete="off"
              />
            </div>
            {rows.length > 1 ? (
              <Button
                variant="ghost"
                onClick={() => setRows((all) => all.filter((r) => r.key !== row.key))}
              >
                Remove check {i + 1}
              </Button>
            ) : null}
          </fieldset>
        );
      })}
      <div className="qa-form-row">
        <Button
          variant="secondary"
          disabled={rows.length >= MAX_CHECKS}
          onClick={() => setRows((all) => [...all, emptyRow()])}
        >
          Add check
        </Button>
      </div>
      <FormActions busy={busy} submitLabel="Record inspection" />
    </form>
  );
}
