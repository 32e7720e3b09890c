import { useEffect, useEffectEvent, useState } from 'react';
import type { ApiResult } from '@/lib/api/call-api';
import { summarizeCodesBulk, type BulkSelection, type BulkSummary } from './codes-api';

/** How long the page waits after the last change of the selection before counting its codes. */
export const SUMMARY_DELAY_MS = 300;

export interface BulkSummaryState {
  /** The server's answer for the selection now made; null while it is counted (or with none). */
  result: ApiResult<BulkSummary> | null;
  /** Whether the selection now made is still being counted. */
  loading: boolean;
  /** Counts the selection again (after a failure). */
  retry: () => void;
}

interface Settled {
  key: string;
  attempt: number;
  result: ApiResult<BulkSummary>;
}

/**
 * What the bulk ZIP of `selection` (null: none yet) would hold, asked for
 * `SUMMARY_DELAY_MS` after the last change; the answers to older selections
 * are dropped, so what is shown always belongs to the selection made now.
 */
export function useBulkSummary(selection: BulkSelection | null): BulkSummaryState {
  const key = selection ? JSON.stringify(selection) : null;
  const [attempt, setAttempt] = useState(0);
  const [settled, setSettled] = useState<Settled | null>(null);
  // The selection now made, which `key` names (a new key clears the timer),
  // without the selection object, new on every render, as a dependency.
  const ask = useEffectEvent(() => summarizeCodesBulk(selection!));

  useEffect(() => {
    if (key === null) return;
    let stale = false;
    const timer = setTimeout(() => {
      void ask().then((result) => {
        if (!stale) setSettled({ key, attempt, result });
      });
    }, SUMMARY_DELAY_MS);
    return () => {
      stale = true;
      clearTimeout(timer);
    };
  }, [key, attempt]);

  const current = key !== null && settled?.key === key && settled.attempt === attempt;
  return {
    result: current ? settled.result : null,
    loading: key !== null && !current,
    retry: () => setAttempt((a) => a + 1),
  };
}
