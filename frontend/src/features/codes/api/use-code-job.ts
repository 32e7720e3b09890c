import { useEffect, useState } from 'react';
import type { ApiResult } from '@/lib/api/call-api';
import { isActive, pollDelay } from '../code-jobs';
import { codeMessages } from '../messages';
import { getCodeJob, type CodeJob } from './codes-api';

/**
 * Follows one job the page started: asks for it every second while it is
 * queued or running (longer after failed refreshes, which keep what was
 * shown and say so), and never after the page has gone or the job changed.
 */
export function useCodeJob(started: CodeJob) {
  const [job, setJob] = useState(started);
  const [refreshError, setRefreshError] = useState<string | null>(null);
  const active = isActive(job);

  useEffect(() => {
    if (!active) return;
    let gone = false;
    let failures = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const refresh = async () => {
      const next: ApiResult<CodeJob> = await getCodeJob(started.id);
      if (gone) return;
      if (next.ok) {
        failures = 0;
        setRefreshError(null);
        setJob(next.data);
        if (!isActive(next.data)) return;
      } else {
        failures += 1;
        setRefreshError(codeMessages.notRefreshed(next.message));
      }
      timer = setTimeout(() => void refresh(), pollDelay(failures));
    };
    timer = setTimeout(() => void refresh(), pollDelay(0));
    return () => {
      gone = true;
      clearTimeout(timer);
    };
  }, [active, started.id]);

  return { job, refreshError };
}
