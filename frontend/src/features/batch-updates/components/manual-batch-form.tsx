import { useId, useRef, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { SelectField, TextAreaField, TextField } from '@/components/ui/form-field';
import { useApiResult } from '@/hooks/use-api-result';
import { useForm } from '@/hooks/use-form';
import { formatDateTime, formatNumber } from '@/lib/format';
import { listCodeJobs, submitBatchForm, type CodeJob } from '../api/batch-updates-api';
import { useBatchRun } from '../api/use-batch-run';
import { applyState } from '../batch-updates';
import {
  batchFormBody,
  batchFormHints,
  emptyBatchForm,
  serialLines,
  today,
  validateBatchForm,
} from '../batch-form';
import { batchMessages } from '../messages';
import { BatchRunView } from './batch-run-view';

function jobLabel(job: CodeJob): string {
  const lot = job.lot ? ` · batch ${job.lot.number}` : '';
  return `${formatDateTime(job.created_at)} · GTIN ${job.gtin}${lot} · ${formatNumber(job.generated)} codes`;
}

/**
 * `/pmbi/batchUpdate`: one batch's data for a range of a code job's codes
 * and/or a list of serials, checked here as the server checks it, then sent
 * as a check (dry run), then, once a check of these very values found no
 * problem, applied after a confirmation naming how many codes change; then
 * the same progress and outcome as the file uploader. The code jobs are offered in a list when the person may
 * list them, and asked for by id otherwise (a 403 is not an error here).
 */
export function ManualBatchForm({ onChange }: { onChange?: () => void }) {
  const form = useForm(emptyBatchForm(), { clearErrorOnChange: true });
  const applyHintId = useId();
  const { run, busy: running, start } = useBatchRun(onChange);
  const jobs = useApiResult(listCodeJobs).result;
  /** Which button sent the form: the ref for the handler, the state for the spinner. */
  const dryRun = useRef(true);
  const [choice, setChoice] = useState(true);
  const busy = form.busy || running;
  const runningDry = run.phase === 'uploading' || run.phase === 'processing' ? run.dryRun : null;

  const jobField = form.field('code_job_id');
  const listed = jobs?.ok ? jobs.data.jobs.filter((j) => j.generated > 0) : [];
  const asSelect =
    listed.length > 0 && (jobField.value === '' || listed.some((j) => j.id === jobField.value));
  const serialCount = serialLines(form.values.serials).length;
  /** The values the last check was sent with: Apply is for those alone. */
  const [checked, setChecked] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const apply = applyState(run, 'form');
  const sameAsChecked = checked === JSON.stringify(form.values);
  const applyCodes = sameAsChecked ? apply.codes : null;
  const applyHint =
    run.phase === 'done' && !sameAsChecked
      ? 'The form changed since its check: check it again before applying.'
      : apply.hint;

  function submit(event: FormEvent<HTMLFormElement>) {
    const dry = dryRun.current;
    dryRun.current = true;
    if (dry) setChecked(JSON.stringify(form.values));
    void form.onSubmit(
      (values) => validateBatchForm(values, today()),
      async (values) => {
        await start(() => submitBatchForm(batchFormBody(values), dry), dry, false);
        return null;
      },
    )(event);
  }

  return (
    <>
      <form ref={formRef} aria-label="Manual batch entry" noValidate onSubmit={submit}>
        <fieldset className="fieldset" disabled={busy}>
          <legend>Codes</legend>
          <p className="muted">A range of a code job’s codes, a list of serials, or both.</p>
          <div className="form-grid">
            {asSelect ? (
              <SelectField
                label="Code job"
                {...jobField}
                options={[
                  { value: '', label: 'No range' },
                  ...listed.map((j) => ({ value: j.id, label: jobLabel(j) })),
                ]}
              />
            ) : (
              <TextField
                label="Code job id"
                placeholder="00000000-0000-0000-0000-000000000000"
                autoComplete="off"
                spellCheck={false}
                hint={
                  jobs === null
                    ? 'Loading your code jobs…'
                    : 'The id (a UUID) of the code job whose codes get this batch; leave empty for serials only.'
                }
                {...jobField}
              />
            )}
            <TextField
              label="First position"
              inputMode="numeric"
              hint={batchFormHints.range}
              {...form.field('first')}
            />
            <TextField label="Last position" inputMode="numeric" {...form.field('last')} />
          </div>
          <TextAreaField
            label="Serials"
            rows={5}
            spellCheck={false}
            hint={`${batchFormHints.serials} ${formatNumber(serialCount)} listed.`}
            {...form.field('serials')}
          />
        </fieldset>
        <fieldset className="fieldset" disabled={busy}>
          <legend>Batch data</legend>
          <div className="form-grid">
            <TextField
              label="GTIN"
              inputMode="numeric"
              autoComplete="off"
              hint={batchFormHints.gtin}
              {...form.field('gtin')}
            />
            <TextField
              label="Batch number"
              autoComplete="off"
              hint={batchFormHints.batch}
              {...form.field('batch_number')}
            />
            <TextField
              label="Manufacturing date"
              type="date"
              max={today()}
              {...form.field('manufacturing_date')}
            />
            <TextField label="Expiry date" type="date" {...form.field('expiry_date')} />
            <TextField
              label="Licence number"
              autoComplete="off"
              hint={batchFormHints.licence}
              {...form.field('licence_number')}
            />
          </div>
        </fieldset>
        <div className="form-actions form-actions--start">
          <Button
            type="submit"
            variant="secondary"
            disabled={busy}
            busy={runningDry === true || (form.busy && choice)}
            onClick={() => {
              dryRun.current = true;
              setChoice(true);
            }}
          >
            Check
          </Button>
          <Button
            disabled={busy || applyCodes === null}
            busy={runningDry === false || (form.busy && !choice)}
            aria-describedby={!busy && applyHint ? applyHintId : undefined}
            onClick={() => setConfirming(true)}
          >
            Apply
          </Button>
        </div>
        {!busy && applyHint ? (
          <p className="muted" id={applyHintId}>
            {applyHint}
          </p>
        ) : null}
      </form>
      <BatchRunView run={run} />
      <ConfirmDialog
        open={confirming && applyCodes !== null}
        title="Apply the batch data"
        message={batchMessages.confirmApply(applyCodes ?? 0)}
        detail={batchMessages.confirmApplyDetail('this form')}
        confirmLabel={batchMessages.applyLabel(applyCodes ?? 0)}
        onConfirm={() => {
          setConfirming(false);
          dryRun.current = false;
          setChoice(false);
          formRef.current?.requestSubmit();
        }}
        onCancel={() => setConfirming(false)}
      />
    </>
  );
}
