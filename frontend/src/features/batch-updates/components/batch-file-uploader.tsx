import { useId, useState } from 'react';
import { ErrorAlert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { uploadBatchFile } from '../api/batch-updates-api';
import { useBatchRun } from '../api/use-batch-run';
import { formatBytes } from '@/lib/format';
import { FILE_RULES, fileProblem } from '../batch-updates';
import { BatchRunView } from './batch-run-view';

const ACCEPT =
  '.csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * The one file uploader of every batch-update page: choose a CSV or XLSX
 * file, "Check file" (a dry run: nothing is written) or "Apply" (all rows or
 * none), with a real upload progress bar, then the server's processing
 * progress, then the outcome. `onChange` runs when an update was accepted
 * and when it finished (the history refreshes).
 */
export function BatchFileUploader({ onChange }: { onChange?: () => void }) {
  const inputId = useId();
  const hintId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const { run, busy, start, reset } = useBatchRun(onChange);
  const running = run.phase === 'uploading' || run.phase === 'processing' ? run : null;

  function choose(chosen: File | undefined) {
    reset();
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
          disabled={!file || busy}
          busy={running?.dryRun === false}
          onClick={() => send(false)}
        >
          Apply
        </Button>
      </div>
      <BatchRunView run={run} />
    </div>
  );
}
