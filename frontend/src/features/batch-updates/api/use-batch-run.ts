import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { usePolledResult } from '@/hooks/use-polled-result';
import type { ApiFailure, ApiResult } from '@/lib/api/call-api';
import { isRunning } from '../batch-updates';
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

/** What this hook keeps; the processing run's progress and outcome come from the polling. */
type Started =
  | Exclude<BatchRun, { phase: 'processing' | 'done' }>
  | { phase: 'processing'; run: number; dryRun: boolean; uploaded: boolean; update: BatchUpdate };

/** The update is gone, or no longer the caller's: asking again will not change that. */
function refused(answer: ApiResult<unknown>): answer is Extract<ApiFailure, { kind: 'status' }> {
  return !answer.ok && answer.kind === 'status' && (answer.status === 404 || answer.status === 403);
}

const finished = (answer: ApiResult<BatchUpdateDetail>) =>
  answer.ok ? !isRunning(answer.data.status) : refused(answer);

/** How long the page waits at most between two looks at a running update. */
const MAX_POLL_MS = 15_000;

/**
 * One batch update at a time, from the request to its outcome: the upload's
 * progress, then `GET /api/batch-updates/{id}` at once and about once a
 * second while the server checks or applies it (`usePolledResult`: longer
 * waits while nothing moves or after failed refreshes, at most 15 s), then
 * its outcome. `onChange` runs when the server accepted the update and when
 * it finished (the history refreshes). Nothing runs after the page has gone.
 */
export function useBatchRun(onChange?: () => void) {
  const [started, setStarted] = useState<Started>({ phase: 'idle' });
  /** Counts runs; a callback of an older run (or after unmount) changes nothing. */
  const generation = useRef(0);

  useEffect(
    () => () => {
      generation.current += 1;
    },
    [],
  );

  const following = started.phase === 'processing' ? started : null;
  const key = following ? `${following.run}:${following.update.id}` : null;
  const polled = usePolledResult(key, () => getBatchUpdate(following?.update.id ?? ''), {
    done: finished,
    maxInterval: MAX_POLL_MS,
  });

  const run = current(started, polled.result, polled.pollError);
  const doneKey = run.phase === 'done' ? key : null;
  const tell = useEffectEvent(() => onChange?.());
  useEffect(() => {
    if (doneKey !== null) tell();
  }, [doneKey]);

  async function start(send: BatchSend, dryRun: boolean, uploaded: boolean) {
    generation.current += 1;
    const mine = generation.current;
    setStarted({ phase: 'uploading', dryRun, progress: null });
    const result = await send((progress) => {
      if (generation.current === mine) setStarted({ phase: 'uploading', dryRun, progress });
    });
    if (generation.current !== mine) return;
    if (!result.ok) {
      setStarted({
        phase: 'refused',
        status: result.kind === 'status' ? result.status : null,
        message: result.message,
      });
      return;
    }
    setStarted({ phase: 'processing', run: mine, dryRun, uploaded, update: result.data });
    onChange?.();
  }

  return {
    run,
    busy: run.phase === 'uploading' || run.phase === 'processing',
    start,
    /** Forgets the last outcome (a new file was chosen); stops following a run. */
    reset: () => {
      generation.current += 1;
      setStarted({ phase: 'idle' });
    },
  };
}

/** The run as the page shows it: what was started, and what the last look at it said. */
function current(
  started: Started,
  result: ApiResult<BatchUpdateDetail> | null,
  pollError: ApiFailure | null,
): BatchRun {
  if (started.phase !== 'processing') return started;
  if (pollError && refused(pollError)) {
    return { phase: 'refused', status: pollError.status, message: pollError.message };
  }
  if (result?.ok && !isRunning(result.data.status)) return { phase: 'done', update: result.data };
  return {
    phase: 'processing',
    dryRun: started.dryRun,
    uploaded: started.uploaded,
    update: result?.ok ? result.data : started.update,
    pollError: pollError ? batchMessages.pollFailed(pollError.message) : null,
  };
}
