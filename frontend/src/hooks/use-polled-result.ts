import { useEffect, useRef, useState } from 'react';
import type { ApiFailure, ApiResult } from '@/lib/api/call-api';

/**
 * Something the server is still working on (a job's progress, a list while
 * one of its items runs), asked for again until it is done.
 *
 *   const jobs = usePolledResult(productId, () => listCodeJobs(productId), {
 *     done: doneWhen((list) => !list.jobs.some(isActive)),
 *   });
 *
 * - **First answer.** Without `initial` it asks at once (`result` is null
 *   meanwhile); with `initial` (what the page already has, say the job a POST
 *   answered) it shows that and asks after the first wait.
 * - **Done.** `done(answer)` runs on every answer, good or failed; when it
 *   says true, asking stops. `doneWhen` builds the usual one: finished data,
 *   or a failure asking again will not change (`isLasting`: a 4xx).
 * - **Backoff.** The first wait is `interval` (1 s). It doubles, up to
 *   `maxInterval` (30 s), after every answer that brought nothing new (a
 *   failure, or the same data as before, compared as JSON), and is back at
 *   `interval` as soon as an answer differs, after `refresh()` and after
 *   `update()`.
 * - **Failures.** A failed answer never replaces a good one: the page keeps
 *   what it shows and `pollError` says why it is not newer (null again after
 *   the next good answer). With nothing good yet, the failure is `result`.
 * - **Stale answers.** An answer asked for before `update()`, `refresh()`, a
 *   new `key`, a `reload()` or the unmount is dropped. A new key starts over
 *   (result null, or `initial`); a null key asks nothing.
 * - **One request at a time.** A refresh asked for while a request runs is
 *   sent once that one has answered; a timer is set only after an answer.
 */
export interface PollOptions<T> {
  /** True when asking again is pointless: the job finished, or a lasting failure. */
  done: (answer: ApiResult<T>) => boolean;
  /** What the page already has: shown at once, first asked for after `interval`. */
  initial?: T;
  /** The first wait between two asks, in ms (1 s). */
  interval?: number;
  /** The longest wait, in ms (30 s). */
  maxInterval?: number;
}

export interface PolledResult<T> {
  /** The last good answer; the failure when none came yet; null while the first ask runs. */
  result: ApiResult<T> | null;
  /** Why the shown answer is not newer: the last ask's failure, null after a good one. */
  pollError: ApiFailure | null;
  /** Asks again now (quietly, keeping what is shown), and polls again if it had stopped. */
  refresh: () => void;
  /** Forgets what is shown (`result` null, or `initial`) and starts over. */
  reload: () => void;
  /** Changes the shown data after a change the server confirmed; older answers are dropped. */
  update: (change: (data: T) => T) => void;
}

export const POLL_INTERVAL_MS = 1000;
export const POLL_MAX_INTERVAL_MS = 30_000;

/** A failure that asking again will not change: a 4xx other than 408 and 429. */
export function isLasting(failure: ApiFailure): boolean {
  return (
    failure.kind === 'status' &&
    failure.status >= 400 &&
    failure.status < 500 &&
    failure.status !== 408 &&
    failure.status !== 429
  );
}

/** `done` for most pages: the data says it is finished, or the failure is lasting. */
export function doneWhen<T>(finished: (data: T) => boolean): (answer: ApiResult<T>) => boolean {
  return (answer) => (answer.ok ? finished(answer.data) : isLasting(answer));
}

interface Poller<T> {
  refresh: () => void;
  update: (change: (data: T) => T) => void;
  stop: () => void;
}

interface PollerConfig<T> {
  ask: () => Promise<ApiResult<T>>;
  done: (answer: ApiResult<T>) => boolean;
  interval: () => number;
  maxInterval: () => number;
  initial: T | undefined;
  publish: (result: ApiResult<T> | null, pollError: ApiFailure | null) => void;
}

const BROKEN_ASK: ApiFailure = {
  ok: false,
  kind: 'unexpected',
  message: 'Something went wrong. Please try again.',
};

/** The loop itself, apart from React: one per key (and reload). */
function startPoller<T>(config: PollerConfig<T>): Poller<T> {
  let shown: ApiResult<T> | null =
    config.initial === undefined ? null : { ok: true, data: config.initial };
  let pollError: ApiFailure | null = null;
  let delay = config.interval();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let inFlight = false;
  /** A refresh was asked for while a request ran: ask again when it answers. */
  let again = false;
  /** Bumped by `refresh` and `update`: an answer asked for before is out of date. */
  let generation = 0;
  let stopped = false;

  const longer = (ms: number) => Math.min(ms * 2, config.maxInterval());

  function wait(ms: number) {
    clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      ask();
    }, ms);
  }

  function apply(answer: ApiResult<T>) {
    if (answer.ok) {
      const changed =
        shown?.ok !== true || JSON.stringify(shown.data) !== JSON.stringify(answer.data);
      shown = answer;
      pollError = null;
      delay = changed ? config.interval() : longer(delay);
    } else {
      if (shown?.ok !== true) shown = answer;
      pollError = answer;
      delay = longer(delay);
    }
    config.publish(shown, pollError);
  }

  function answered(answer: ApiResult<T>, mine: number) {
    inFlight = false;
    if (stopped) return;
    let finished: boolean;
    if (mine === generation) {
      apply(answer);
      finished = config.done(answer);
    } else {
      // Out of date: dropped. Whether to go on depends on what is shown.
      finished = shown !== null && config.done(shown);
    }
    if (again) {
      again = false;
      ask();
    } else if (!finished) {
      wait(delay);
    }
  }

  function ask() {
    if (stopped) return;
    clearTimeout(timer);
    timer = undefined;
    if (inFlight) {
      again = true;
      return;
    }
    inFlight = true;
    const mine = generation;
    config.ask().then(
      (answer) => answered(answer, mine),
      () => answered(BROKEN_ASK, mine),
    );
  }

  if (shown === null) ask();
  else if (!config.done(shown)) wait(delay);

  return {
    refresh: () => {
      if (stopped) return;
      generation += 1;
      delay = config.interval();
      ask();
    },
    update: (change) => {
      if (stopped || shown?.ok !== true) return;
      generation += 1;
      shown = { ok: true, data: change(shown.data) };
      delay = config.interval();
      config.publish(shown, pollError);
      // A request on its way is dropped when it answers, and the wait follows it.
      if (inFlight) return;
      if (config.done(shown)) {
        clearTimeout(timer);
        timer = undefined;
      } else {
        wait(delay);
      }
    },
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

interface Shown<T> {
  key: string | null;
  attempt: number;
  result: ApiResult<T> | null;
  pollError: ApiFailure | null;
}

function fresh<T>(key: string | null, attempt: number, initial: T | undefined): Shown<T> {
  return {
    key,
    attempt,
    result: key === null || initial === undefined ? null : { ok: true, data: initial },
    pollError: null,
  };
}

/** See `PollOptions`: asks `ask()` for `key` until `done`, with backoff. */
export function usePolledResult<T>(
  key: string | null,
  ask: () => Promise<ApiResult<T>>,
  options: PollOptions<T>,
): PolledResult<T> {
  const [attempt, setAttempt] = useState(0);
  const [shown, setShown] = useState(() => fresh(key, attempt, options.initial));
  const latest = useRef({ ask, options });
  const poller = useRef<Poller<T> | null>(null);

  useEffect(() => {
    latest.current = { ask, options };
  });

  // A new key (or a reload) shows nothing of the old one, from this render on.
  let view = shown;
  if (shown.key !== key || shown.attempt !== attempt) {
    view = fresh(key, attempt, options.initial);
    setShown(view);
  }

  useEffect(() => {
    if (key === null) return;
    const started = startPoller<T>({
      ask: () => latest.current.ask(),
      done: (answer) => latest.current.options.done(answer),
      interval: () => latest.current.options.interval ?? POLL_INTERVAL_MS,
      maxInterval: () => latest.current.options.maxInterval ?? POLL_MAX_INTERVAL_MS,
      initial: latest.current.options.initial,
      publish: (result, pollError) => setShown({ key, attempt, result, pollError }),
    });
    poller.current = started;
    return () => {
      started.stop();
      poller.current = null;
    };
  }, [key, attempt]);

  return {
    result: view.result,
    pollError: view.pollError,
    refresh: () => poller.current?.refresh(),
    reload: () => setAttempt((a) => a + 1),
    update: (change) => poller.current?.update(change),
  };
}
