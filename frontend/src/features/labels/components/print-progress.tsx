import type { PrintJob } from '../api/labels-api';
import { progressText } from '../print-jobs';

/**
 * How far a queued or running print job has come: a bar (a `progressbar`
 * with the counts as its value) and the counts as text,
 * `2,500 of 10,000 labels` (as `features/codes` shows code jobs).
 */
export function PrintProgress({ job }: { job: Pick<PrintJob, 'printed' | 'total'> }) {
  const text = progressText(job);
  const percent = job.total > 0 ? Math.min(100, (job.printed / job.total) * 100) : 0;
  return (
    <div>
      <div
        className="meter"
        role="progressbar"
        aria-label="Labels printed"
        aria-valuemin={0}
        aria-valuemax={job.total}
        aria-valuenow={job.printed}
        aria-valuetext={text}
      >
        <div className="meter__bar" style={{ width: `${percent}%` }} />
      </div>
      <div>{text}</div>
    </div>
  );
}
