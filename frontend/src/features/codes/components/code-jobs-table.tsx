import { DataTable, type Column } from '@/components/ui/data-table';
import { formatDateTime, formatNumber } from '@/lib/format';
import { codesDownloadUrl, type CodeJob } from '../api/codes-api';
import {
  STATUS_BADGES,
  STATUS_LABELS,
  codesText,
  formatDay,
  isActive,
  isDownloadable,
  progressText,
} from '../code-jobs';
import { JobProgress } from './job-progress';

const none = <span className="muted">None</span>;

function JobCodes({ job }: { job: CodeJob }) {
  if (isActive(job)) return <JobProgress job={job} />;
  if (job.status === 'done') return <>{codesText(job.generated)}</>;
  return (
    <div>
      <div>{progressText(job)}</div>
      <div className="field__error">{job.error ?? 'The job stopped without a reason.'}</div>
    </div>
  );
}

const COLUMNS: readonly Column<CodeJob>[] = [
  { header: 'Created', cell: (job) => formatDateTime(job.created_at) },
  {
    header: 'Lot',
    cell: (job) => (job.lot ? <span className="mono">{job.lot.number}</span> : none),
  },
  { header: 'Expiry', cell: (job) => (job.lot?.expires_on ? formatDay(job.lot.expires_on) : none) },
  { header: 'Quantity', className: 'num', cell: (job) => formatNumber(job.quantity) },
  {
    header: 'Status',
    cell: (job) => <span className={STATUS_BADGES[job.status]}>{STATUS_LABELS[job.status]}</span>,
  },
  { header: 'Codes', className: 'share', cell: (job) => <JobCodes job={job} /> },
];

/** What a download link is about, for its accessible name: the job's lot and time. */
function jobName(job: CodeJob): string {
  const lot = job.lot ? `lot ${job.lot.number}, ` : '';
  return `${codesText(job.generated)} of ${lot}${formatDateTime(job.created_at)}`;
}

/**
 * The product's code jobs, newest first. With `downloads`, a done or failed
 * job has its CSV and ZIP links (plain links: the session cookie goes with
 * them and the server names the file).
 */
export function CodeJobsTable({
  jobs,
  downloads,
}: {
  jobs: readonly CodeJob[];
  downloads: boolean;
}) {
  return (
    <DataTable
      label="Code jobs"
      columns={COLUMNS}
      rows={jobs}
      rowKey={(job) => job.id}
      empty="No codes have been generated for this product yet."
      actions={
        downloads
          ? (job) =>
              isDownloadable(job) ? (
                <>
                  <a
                    className="btn btn--secondary"
                    href={codesDownloadUrl(job.id, 'csv')}
                    download
                    aria-label={`CSV: ${jobName(job)}`}
                  >
                    CSV
                  </a>
                  <a
                    className="btn btn--secondary"
                    href={codesDownloadUrl(job.id, 'zip')}
                    download
                    aria-label={`ZIP: ${jobName(job)}`}
                  >
                    ZIP
                  </a>
                </>
              ) : null
          : undefined
      }
    />
  );
}
