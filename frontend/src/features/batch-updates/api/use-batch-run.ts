import { useEffect, useRef, useState } from 'react';
import type { ApiResult } from '@/lib/api/call-api';
import { isRunning, POLL_MS, pollDelay } from '../batch-updates';
import { batchMessages } from '../messages';
import {
  getBatchUpdate,
  type BatchUpdate,
  type BatchUpdateDetail,
  type UploadProgress,
} from './batch-updates-api';

/** Where one check or apply is: sending, processing on the server, finished, or refused. */
export type BatchRun =
  | { phase: 'idle' }
  | { phase: 'uploading'; dryRun: boolean; progress: UploadProgress | null }
  | {
      phase: 'processing';
      dryRun: boolean;
      /** Whether a file was uploaded (its upload bar stays, full). */
      uploaded: boolean;
      update: BatchUpdate;
      pollError: string | null;
    }
  | { phase: 'done'; update: BatchUpdateDetail }
  | { phase: 'refused'; status: number | null; message: string };

/** What starts a run: sends the request, reporting upload progress when it can. */
export type BatchSend = (
  onProgress: (progress: UploadProgress) => void,
) => Promise<ApiResult<BatchUpdate>>;

/**
 * One batch update at a time, from the request to its outcome: the upload's
 * progress, then `GET /api/batch-updates/{id}` about once a second while the
 * server checks or applies it (longer waits after failed refreshes), then its
 * outcome. `onChange` runs when the server accepted the update and when it
 * finished (the history refreshes). Nothing runs after the page has gone.
 */
export function useBatchRun(onChange?: () => void) {
  const [run, setRun] = useState<BatchRun>({ phase: 'idle' });
  /** Counts runs; a callback of an older run (or after unmount) changes nothing. */
  const generation = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(
    () => () => {
      generation.current += 1;
      clearTimeout(timer.current);
    },
    [],
  );

  function poll(id: string, mine: number, delay: number, failures: number) {
    timer.current = setTimeout(() => {
      void getBatchUpdate(id).then((next) => {
        if (generation.current !== mine) return;
        if (!next.ok) {
          if (next.kind === 'status' && (next.status === 404 || next.status === 403)) {
            setRun({ phase: 'refused', status: next.status, message: next.message });
            return;
          }
          setRun((current) =>
            current.phase === 'processing'
              ? { ...current, pollError: batchMessages.pollFailed(next.message) }
              : current,
          );
          poll(id, mine, pollDelay(failures + 1), failures + 1);
          return;
        }
        if (isRunning(next.data.status)) {
          setRun((current) =>
            current.phase === 'processing'
              ? { ...current, update: next.data, pollError: null }
              : current,
          );
          poll(id, mine, POLL_MS, 0);
          return;
        }
        setRun({ phase: 'done', update: next.data });
        onChange?.();
      });
    }, delay);
  }

  async function start(send: BatchSend, dryRun: boolean, uploaded: boolean) {
    generation.current += 1;
    const mine = generation.current;
    clearTimeout(timer.current);
    setRun({ phase: 'uploading', dryRun, progress: null });
    const result = await send((progress) => {
      if (generation.current === mine) setRun({ phase: 'uploading', dryRun, progress });
    });
    if (generation.current !== mine) return;
    if (!result.ok) {
      setRun({
        phase: 'refused',
        status: result.kind === 'status' ? result.status : null,
        message: result.message,
      });
      return;
    }
    setRun({ phase: 'processing', dryRun, uploaded, update: result.data, pollError: null });
    onChange?.();
    // The first look at once: a small update is often done by then.
    poll(result.data.id, mine, 0, 0);
  }

  return {
    run,
    busy: run.phase === 'uploading' || run.phase === 'processing',
    start,
    /** Forgets the last outcome (a new file was chosen); stops following a run. */
    reset: () => {
      generation.current += 1;
      clearTimeout(timer.current);
      setRun({ phase: 'idle' });
    },
  };
}
