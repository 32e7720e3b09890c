import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { useApiResult } from '@/hooks/use-api-result';
import type { ApiResult } from '@/lib/api/call-api';
import { labelMessages } from '../messages';
import { isActive, newestFirst, pollDelay } from '../print-jobs';
import { listPrintJobs, type PrintJob, type PrintJobList } from './labels-api';

/**
 * The organisation's print jobs: loaded on mount, then asked for again every
 * second while a job is queued or running, until none is (and never after
 * the page has gone). A refresh that fails keeps what was shown, says so,
 * and is tried again after a longer wait.
 */
export function usePrintJobs() {
  const { result, reload, update } = useApiResult(listPrintJobs);
  const [refreshError, setRefreshError] = useState<string | null>(null);
  /** Counts changes made here; a refresh asked for before one is out of date. */
  const changes = useRef(0);
  const active = result?.ok === true && result.data.jobs.some(isActive);

  const applyRefresh = useEffectEvent((next: ApiResult<PrintJobList>, asked: number): boolean => {
    if (!next.ok) {
      setRefreshError(labelMessages.notRefreshed(next.message));
      return false;
    }
    setRefreshError(null);
    if (asked === changes.current) update(() => next.data);
    return true;
  });

  useEffect(() => {
    if (!active) return;
    let gone = false;
    let failures = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const refresh = async () => {
      const asked = changes.current;
      const next = await listPrintJobs();
      if (gone) return;
      failures = applyRefresh(next, asked) ? 0 : failures + 1;
      // Once no job is active the effect is cleaned up and this timer cleared.
      timer = setTimeout(() => void refresh(), pollDelay(failures));
    };
    timer = setTimeout(() => void refresh(), pollDelay(0));
    return () => {
      gone = true;
      clearTimeout(timer);
    };
  }, [active]);

  return {
    result,
    refreshError,
    reload: () => {
      setRefreshError(null);
      reload();
    },
    /** A job the server accepted (new or a reprint): shown at once, then followed. */
    jobCreated: (job: PrintJob) => {
      if (!result?.ok) {
        reload();
        return;
      }
      changes.current += 1;
      update((data) => ({
        ...data,
        jobs: newestFirst([job, ...data.jobs.filter((j) => j.id !== job.id)]),
      }));
    },
  };
}
