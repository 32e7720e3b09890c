import { DownloadMinimalisticIcon } from '@solar-icons/react/linear/download-minimalistic';
import { RestartIcon } from '@solar-icons/react/linear/restart';
import { DataTable, type Column } from '@/components/ui/data-table';
import { Spinner } from '@/components/ui/spinner';
import { formatBytes, formatDateTime } from '@/lib/format';
import { printOutputUrl, type PrintJob } from '../api/labels-api';
import { codeJobDetail, type CodeJobChoice } from '../code-job-choices';
import { labelsText } from '../messages';
import { FORMAT_LABELS, STATUS_BADGES, STATUS_LABELS, isActive, progressText } from '../print-jobs';
import { PrintProgress } from './print-progress';

function JobLabels({ job }: { job: PrintJob }) {
  if (isActive(job)) return <PrintProgress job={job} />;
  if (job.status === 'done')
    return (
      <div>
        <div>{labelsText(job.printed)}</div>
        {job.output_bytes !== undefined ? (
          <div className="muted">{formatBytes(job.output_bytes)}</div>
        ) : null}
      </div>
    );
  return (
    <div>
      <div>{progressText(job)}</div>
      <div className="field__error">{job.error ?? 'The job stopped without a reason.'}</div>
    </div>
  );
}

function CodeJobCell({ choice }: { choice: CodeJobChoice | undefined }) {
  if (!choice) return <span className="muted">A code job no longer listed</span>;
  return (
    <div>
      <div>{choice.product}</div>
      <div className="muted">{codeJobDetail(choice)}</div>
    </div>
  );
}

/** What a row's buttons are about, for their accessible names. */
function jobName(job: PrintJob): string {
  return `${labelsText(job.total)} with ${job.template_name}, ${formatDateTime(job.created_at)}`;
}

/**
 * The print jobs, newest first: the template and format, the code job (its
 * product, lot and codes, when `codeJobs` knows it), the status with a
 * progress bar while it prints, and for a done job its file and a reprint
 * (a failed one may be tried again).
 */
export function PrintJobsTable({
  jobs,
  codeJobs,
  reprinting,
  onReprint,
}: {
  jobs: readonly PrintJob[];
  codeJobs: ReadonlyMap<string, CodeJobChoice>;
  /** The job whose reprint is being asked for. */
  reprinting: string | null;
  onReprint: (job: PrintJob) => void;
}) {
  const columns: readonly Column<PrintJob>[] = [
    {
      header: 'Created',
      cell: (job) => (
        <div>
          <div>{formatDateTime(job.created_at)}</div>
          {job.reprint_of ? <div className="muted">Reprint</div> : null}
        </div>
      ),
    },
    {
      header: 'Template',
      cell: (job) => (
        <div>
          <div>{job.template_name}</div>
          <div className="muted">{FORMAT_LABELS[job.format]}</div>
        </div>
      ),
    },
    { header: 'Codes', cell: (job) => <CodeJobCell choice={codeJobs.get(job.code_job_id)} /> },
    {
      header: 'Status',
      cell: (job) => <span className={STATUS_BADGES[job.status]}>{STATUS_LABELS[job.status]}</span>,
    },
    { header: 'Labels', cell: (job) => <JobLabels job={job} /> },
  ];

  // `print-jobs`: long names wrap, so the row's buttons stay on screen at 1280 px.
  return (
    <div className="print-jobs">
      <DataTable
        label="Print jobs"
        columns={columns}
        rows={jobs}
        rowKey={(job) => job.id}
        empty="Nothing has been printed yet."
        actions={(job) =>
          isActive(job) ? null : (
            <>
              {job.status === 'done' ? (
                <a
                  className="btn btn--secondary"
                  href={printOutputUrl(job.id)}
                  download
                  aria-label={`Download ${FORMAT_LABELS[job.format]}: ${jobName(job)}`}
                >
                  <DownloadMinimalisticIcon />
                  {FORMAT_LABELS[job.format]}
                </a>
              ) : null}
              <button
                type="button"
                className="icon-btn"
                title="Reprint"
                aria-label={`Reprint: ${jobName(job)}`}
                aria-busy={reprinting === job.id || undefined}
                disabled={reprinting !== null}
                onClick={() => onReprint(job)}
              >
                {reprinting === job.id ? <Spinner /> : <RestartIcon />}
              </button>
            </>
          )
        }
      />
    </div>
  );
}
