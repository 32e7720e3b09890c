import { doneWhen, usePolledResult } from '@/hooks/use-polled-result';
import { isActive, newestFirst } from '../code-jobs';
import { codeMessages } from '../messages';
import { listCodeJobs, type CodeJob, type CodeJobList } from './codes-api';

const allFinished = doneWhen((list: CodeJobList) => !list.jobs.some(isActive));

/**
 * A product's code jobs and the plan's code quota: loaded on mount, then
 * asked for again while a job is queued or running (`usePolledResult`: every
 * second while it moves, less often while it does not), until none is. A
 * refresh that fails keeps what was shown and says so.
 */
export function useCodeJobs(productId: string) {
  const jobs = usePolledResult(productId, () => listCodeJobs(productId), { done: allFinished });

  return {
    result: jobs.result,
    refreshError: jobs.pollError ? codeMessages.notRefreshed(jobs.pollError.message) : null,
    reload: jobs.reload,
    /** Asks again now, without the loading line (the quota after a refusal, say). */
    refresh: jobs.refresh,
    /** A job the server accepted: shown at once, its codes taken from what remains. */
    jobCreated: (job: CodeJob) => {
      if (!jobs.result?.ok) {
        jobs.reload();
        return;
      }
      jobs.update((data) => ({
        ...data,
        jobs: newestFirst([job, ...data.jobs.filter((j) => j.id !== job.id)]),
        qr_codes_remaining: Math.max(0, data.qr_codes_remaining - job.quantity),
      }));
    },
  };
}
