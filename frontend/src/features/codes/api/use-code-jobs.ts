import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { useApiResult } from '@/hooks/use-api-result';
import type { ApiResult } from '@/lib/api/call-api';
import { isActive, newestFirst, pollDelay } from '../code-jobs';
import { codeMessages } from '../messages';
import { listCodeJobs, type CodeJob, type CodeJobList } from './codes-api';

/**
 * A product's code jobs and the plan's code quota: loaded on mount, then
 * asked for again every second while a job is queued or running, until none
 * is (and never after the page has gone). A refresh that fails keeps what
 * was shown, says so, and is tried again after a longer wait.
 */
export function useCodeJobs(productId: string) {
  const { result, reload, update } = useApiResult(() => listCodeJobs(productId));
  const [refreshError, setRefreshError] = useState<string | null>(null);
  /** Counts changes made here; a refresh asked for before one is out of date. */
  const changes = useRef(0);
  const active = result?.ok === true && result.data.jobs.some(isActive);

  const applyRefresh = useEffectEvent((next: ApiResult<CodeJobList>, asked: number): boolean => {
    if (!next.ok) {
      setRefreshError(codeMessages.notRefreshed(next.message));
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
      const next = await listCodeJobs(productId);
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
  }, [active, productId]);

  return {
    result,
    refreshError,
    reload: () => {
      setRefreshError(null);
      reload();
    },
    /** Asks again now, without the loading line (the quota after a refusal, say). */
    refresh: async () => {
      const asked = changes.current;
      const next = await listCodeJobs(productId);
      if (next.ok && asked === changes.current) update(() => next.data);
    },
    /** A job the server accepted: shown at once, its codes taken from what remains. */
    jobCreated: (job: CodeJob) => {
      if (!result?.ok) {
        reload();
        return;
      }
      changes.current += 1;
      update((data) => ({
        ...data,
        jobs: newestFirst([job, ...data.jobs.filter((j) => j.id !== job.id)]),
        qr_codes_remaining: Math.max(0, data.qr_codes_remaining - job.quantity),
      }));
    },
  };
}
