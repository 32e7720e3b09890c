import { useState, type FormEvent } from 'react';
import { ErrorAlert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { SelectField, TextField } from '@/components/ui/form-field';
import { RANGE_PRESETS, lastDays, longDay, rangeProblem, type DateRange } from '../date-range';

const CUSTOM = 'custom';

function presetOf(range: DateRange): string {
  const preset = RANGE_PRESETS.find((p) => {
    const r = lastDays(p.days);
    return r.from === range.from && r.to === range.to;
  });
  return preset ? String(preset.days) : CUSTOM;
}

/** Picks the days the analytics cover: a preset (applied at once), or two days and "Show". */
export function RangeForm({
  range,
  onChange,
}: {
  range: DateRange;
  onChange: (range: DateRange) => void;
}) {
  const [draft, setDraft] = useState<DateRange>(range);
  const [problem, setProblem] = useState<string | null>(null);
  const preset = presetOf(draft);

  function choosePreset(value: string) {
    if (value === CUSTOM) return;
    const next = lastDays(Number(value));
    setDraft(next);
    setProblem(null);
    onChange(next);
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = rangeProblem(draft);
    setProblem(found);
    if (!found) onChange(draft);
  }

  return (
    <form className="range-form" aria-label="Date range" onSubmit={submit} noValidate>
      <SelectField
        label="Period"
        value={preset}
        onChange={(e) => choosePreset(e.target.value)}
        options={[
          ...RANGE_PRESETS.map((p) => ({ value: String(p.days), label: p.label })),
          { value: CUSTOM, label: 'Custom range' },
        ]}
      />
      <TextField
        label="From"
        type="date"
        value={draft.from}
        max={draft.to || undefined}
        onChange={(e) => setDraft((d) => ({ ...d, from: e.target.value }))}
      />
      <TextField
        label="To"
        type="date"
        value={draft.to}
        min={draft.from || undefined}
        onChange={(e) => setDraft((d) => ({ ...d, to: e.target.value }))}
      />
      <Button type="submit" variant="secondary">
        Show
      </Button>
      {problem ? <ErrorAlert>{problem}</ErrorAlert> : null}
      <p className="range-form__caption muted" aria-live="polite">
        Scans from {longDay(range.from)} to {longDay(range.to)}, both days included.
      </p>
    </form>
  );
}
