import { doneWhen, usePolledResult } from '@/hooks/use-polled-result';
import { isActive } from '../code-jobs';
import { codeMessages } from '../messages';
import { getCodeJob, type CodeJob } from './codes-api';

const finished = doneWhen((job: CodeJob) => !isActive(job));

/**
 * Follows one job the page started: asks for it while it is queued or
 * running (`usePolledResult`; failed refreshes keep what was shown and say
 * so), and never after the page has gone or the job changed.
 */
export function useCodeJob(started: CodeJob) {
  const polled = usePolledResult(started.id, () => getCodeJob(started.id), {
    done: finished,
    initial: started,
  });
  return {
    job: polled.result?.ok ? polled.result.data : started,
    refreshError: polled.pollError ? codeMessages.notRefreshed(polled.pollError.message) : null,
  };
}
