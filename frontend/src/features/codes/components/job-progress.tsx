import type { CodeJob } from '../api/codes-api';
import { progressText } from '../code-jobs';

/**
 * How far a queued or running job has come: a bar (a `progressbar` with the
 * counts as its value) and the counts as text, `12,500 of 1,000,000 codes`.
 */
export function JobProgress({ job }: { job: Pick<CodeJob, 'generated' | 'quantity'> }) {
  const text = progressText(job);
  const percent = job.quantity > 0 ? Math.min(100, (job.generated / job.quantity) * 100) : 0;
  return (
    <div>
      <div
        className="meter"
        role="progressbar"
        aria-label="Codes generated"
        aria-valuemin={0}
        aria-valuemax={job.quantity}
        aria-valuenow={job.generated}
        aria-valuetext={text}
      >
        <div className="meter__bar" style={{ width: `${percent}%` }} />
      </div>
      <div>{text}</div>
    </div>
  );
}
