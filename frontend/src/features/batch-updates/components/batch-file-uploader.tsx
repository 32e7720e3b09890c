import { useId, useState } from 'react';
import { ErrorAlert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { uploadBatchFile } from '../api/batch-updates-api';
import { useBatchRun } from '../api/use-batch-run';
import { formatBytes } from '@/lib/format';
import { applyState, FILE_RULES, fileProblem } from '../batch-updates';
import { batchMessages } from '../messages';
import { BatchRunView } from './batch-run-view';

const ACCEPT =
  '.csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * The one file uploader of every batch-update page: choose a CSV or XLSX
 * file, "Check file" (a dry run: nothing is written), then, once the check
 * found no problem, "Apply" (all rows or none), after a confirmation that
 * names how many codes will change; with a real upload progress bar, then
 * the server's processing progress, then the outcome. After a check that
 * found problems Apply stays off until a file is chosen again. `onChange`
 * runs when an update was accepted and when it finished (the history
 * refreshes).
 */
export function BatchFileUploader({ onChange }: { onChange?: () => void }) {
  const inputId = useId();
  const hintId = useId();
  const applyHintId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const { run, busy, start, reset } = useBatchRun(onChange);
  const running = run.phase === 'uploading' || run.phase === 'processing' ? run : null;
  const [confirming, setConfirming] = useState(false);
  const apply = applyState(run);

  function choose(chosen: File | undefined) {
    reset();
    setConfirming(false);
    setFileError(null);
    setFile(null);
    if (!chosen) return;
    const problem = fileProblem(chosen);
    if (problem) {
      setFileError(problem);
      return;
    }
    setFile(chosen);
  }

  function send(dryRun: boolean) {
    setConfirming(false);
    if (!file || busy) return;
    void start((onProgress) => uploadBatchFile(file, dryRun, onProgress), dryRun, true);
  }

  return (
    <div className="batch-uploader">
      <div className="field">
        <label className="field__label" htmlFor={inputId}>
          Batch file (CSV or XLSX)
        </label>
        <input
          id={inputId}
          type="file"
          className="input"
          accept={ACCEPT}
          aria-describedby={hintId}
          disabled={busy}
          onChange={(e) => choose(e.target.files?.[0])}
        />
        <span className="field__hint" id={hintId}>
          {FILE_RULES}
        </span>
      </div>
      {fileError ? <ErrorAlert>{fileError}</ErrorAlert> : null}
      {file ? (
        <p className="muted">
          {file.name}, {formatBytes(file.size)}. Check it first: nothing is written until you apply
          it, and then all its rows are applied or none.
        </p>
      ) : null}
      <div className="form-actions form-actions--start">
        <Button
          variant="secondary"
          disabled={!file || busy}
          busy={running?.dryRun === true}
          onClick={() => send(true)}
        >
          Check file
        </Button>
        <Button
          disabled={!file || busy || apply.codes === null}
          busy={running?.dryRun === false}
          aria-describedby={file && !busy && apply.hint ? applyHintId : undefined}
          onClick={() => setConfirming(true)}
        >
          Apply
        </Button>
      </div>
      {file && !busy && apply.hint ? (
        <p className="muted" id={applyHintId}>
          {apply.hint}
        </p>
      ) : null}
      <BatchRunView run={run} />
      <ConfirmDialog
        open={confirming && apply.codes !== null}
        title="Apply the batch data"
        message={batchMessages.confirmApply(apply.codes ?? 0)}
        detail={batchMessages.confirmApplyDetail(file?.name ?? '')}
        confirmLabel={batchMessages.applyLabel(apply.codes ?? 0)}
        onConfirm={() => send(false)}
        onCancel={() => setConfirming(false)}
      />
    </div>
  );
}
