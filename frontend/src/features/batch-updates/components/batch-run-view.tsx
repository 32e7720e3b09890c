import { ErrorAlert } from '@/components/ui/alert';
import type { BatchRun } from '../api/use-batch-run';
import { formatBytes } from '@/lib/format';
import { processingText } from '../batch-updates';
import { refusalTitle } from '../messages';
import { BatchOutcome } from './batch-outcome';
import { ProgressMeter } from './progress-meter';

/**
 * Where a check or apply is: the upload bar while the request is sent, the
 * processing bar while the server reads the rows, then the outcome, or the
 * refusal with the server's own words.
 */
export function BatchRunView({ run }: { run: BatchRun }) {
  switch (run.phase) {
    case 'idle':
      return null;
    case 'uploading': {
      const { progress } = run;
      return (
        <div className="batch-run" aria-live="polite">
          <ProgressMeter
            label="Upload"
            done={progress?.loaded ?? 0}
            total={progress?.total ?? 0}
            text={
              progress
                ? `${formatBytes(progress.loaded)} of ${formatBytes(progress.total)} sent`
                : 'Sending…'
            }
          />
        </div>
      );
    }
    case 'processing': {
      const { update } = run;
      const label =
        update.status === 'applying'
          ? 'Applying'
          : update.status === 'queued'
            ? 'Waiting to be checked'
            : 'Checking rows';
      return (
        <div className="batch-run" aria-live="polite">
          {run.uploaded ? (
            <ProgressMeter
              label="Upload"
              done={update.size_bytes}
              total={update.size_bytes}
              text={`${formatBytes(update.size_bytes)} sent`}
            />
          ) : null}
          <ProgressMeter
            label="Processing"
            done={update.bytes_read}
            total={update.size_bytes}
            text={`${label}: ${processingText(update)}`}
          />
          {run.pollError ? (
            <p className="muted" role="status">
              {run.pollError}
            </p>
          ) : null}
        </div>
      );
    }
    case 'done':
      return <BatchOutcome update={run.update} />;
    case 'refused':
      return (
        <ErrorAlert>
          <strong>{refusalTitle(run.status)}</strong> {run.message}
        </ErrorAlert>
      );
  }
}
