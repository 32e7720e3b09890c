import { doneWhen, usePolledResult } from '@/hooks/use-polled-result';
import { labelMessages } from '../messages';
import { isActive, newestFirst } from '../print-jobs';
import { listPrintJobs, type PrintJob, type PrintJobList } from './labels-api';

const allFinished = doneWhen((list: PrintJobList) => !list.jobs.some(isActive));

/**
 * The organisation's print jobs: loaded on mount, then asked for again while
 * a job is queued or running (`usePolledResult`: every second while it moves,
 * less often while it does not), until none is. A refresh that fails keeps
 * what was shown and says so.
 */
export function usePrintJobs() {
  const jobs = usePolledResult('print-jobs', listPrintJobs, { done: allFinished });

  return {
    result: jobs.result,
    refreshError: jobs.pollError ? labelMessages.notRefreshed(jobs.pollError.message) : null,
    reload: jobs.reload,
    /** A job the server accepted (new or a reprint): shown at once, then followed. */
    jobCreated: (job: PrintJob) => {
      if (!jobs.result?.ok) {
        jobs.reload();
        return;
      }
      jobs.update((data) => ({
        ...data,
        jobs: newestFirst([job, ...data.jobs.filter((j) => j.id !== job.id)]),
      }));
    },
  };
}
