import { act, renderHook } from '@testing-library/react';
import type { ApiResult } from '@/lib/api/call-api';
import { fakeTimeouts, settle, tick } from '@/testing/fake-timeouts';
import { doneWhen, isLasting, usePolledResult, type PollOptions } from './use-polled-result';

interface Job {
  id: string;
  done: number;
  finished: boolean;
}

const job = (done: number, finished = false, id = 'a'): ApiResult<Job> => ({
  ok: true,
  data: { id, done, finished },
});
const failure = (status: number): ApiResult<Job> => ({
  ok: false,
  kind: 'status',
  status,
  body: null,
  message: `Failed with ${status}.`,
});
const done = doneWhen<Job>((j) => j.finished);

/** A server whose answers the test gives, one per request, when it wants. */
function server() {
  const waiting: ((answer: ApiResult<Job>) => void)[] = [];
  const ask = vi.fn(() => new Promise<ApiResult<Job>>((resolve) => waiting.push(resolve)));
  return {
    ask,
    /** How many requests are waiting for their answer. */
    waiting: () => waiting.length,
    /** Answers a waiting request (the oldest unless told), and lets the hook render it. */
    answer: async (answer: ApiResult<Job>, which = 0) => {
      const [resolve] = waiting.splice(which, 1);
      if (!resolve) throw new Error('no request is waiting');
      resolve(answer);
      await settle();
    },
  };
}

/** A server that answers at once with `answers` in turn (the last one again after that). */
function answering(...answers: ApiResult<Job>[]) {
  let n = 0;
  return vi.fn(() => Promise.resolve(answers[Math.min(n++, answers.length - 1)]!));
}

function poll(
  ask: () => Promise<ApiResult<Job>>,
  options: Partial<PollOptions<Job>> = {},
  key: string | null = 'a',
) {
  return renderHook(
    ({ k }: { k: string | null }) => usePolledResult(k, ask, { done, ...options }),
    { initialProps: { k: key } },
  );
}

/** Advances the clock by each of `waits` and returns how many asks each step brought. */
async function asksAfter(ask: { mock: { calls: unknown[] } }, waits: number[]) {
  const counts: number[] = [];
  for (const ms of waits) {
    const before = ask.mock.calls.length;
    await tick(ms);
    counts.push(ask.mock.calls.length - before);
  }
  return counts;
}

beforeEach(() => fakeTimeouts());
afterEach(() => vi.useRealTimers());

describe('usePolledResult', () => {
  it('asks at once, then every second while the answer changes, and stops when done', async () => {
    const ask = answering(job(1), job(2), job(3), job(4, true));
    const { result } = poll(ask);
    expect(result.current.result).toBeNull();
    await settle();
    expect(ask).toHaveBeenCalledTimes(1);
    expect(result.current.result).toEqual(job(1));

    expect(await asksAfter(ask, [999, 1])).toEqual([0, 1]);
    expect(result.current.result).toEqual(job(2));
    expect(await asksAfter(ask, [1000, 1000])).toEqual([1, 1]);
    expect(result.current.result).toEqual(job(4, true));

    // Done: nothing more, however long.
    expect(await asksAfter(ask, [60_000])).toEqual([0]);
  });

  it('waits twice as long after each unchanged answer, up to the cap, and a second again once it changes', async () => {
    let n = 0;
    // The same answer six times, then a new one, then the same again.
    const ask = vi.fn(() => Promise.resolve(job(++n <= 6 ? 1 : 2)));
    poll(ask, { maxInterval: 8000 });
    await settle();
    expect(ask).toHaveBeenCalledTimes(1);
    // The first answer is new: 1 s. Then unchanged: 2 s, 4 s, 8 s, 8 s (the cap).
    expect(await asksAfter(ask, [1000])).toEqual([1]);
    expect(await asksAfter(ask, [1999, 1])).toEqual([0, 1]);
    expect(await asksAfter(ask, [3999, 1])).toEqual([0, 1]);
    expect(await asksAfter(ask, [7999, 1])).toEqual([0, 1]);
    expect(await asksAfter(ask, [7999, 1])).toEqual([0, 1]);
    expect(await asksAfter(ask, [7999, 1])).toEqual([0, 1]);
    // The 7th answer differs: back to 1 s, then 2 s as it stays the same.
    expect(ask).toHaveBeenCalledTimes(7);
    expect(await asksAfter(ask, [1000])).toEqual([1]);
    expect(await asksAfter(ask, [1999, 1])).toEqual([0, 1]);
  });

  it('keeps the good answer through a failure, says why, and tries again after a longer wait', async () => {
    const ask = answering(job(1), failure(500), failure(503), job(2));
    const { result } = poll(ask);
    await settle();
    await tick(1000);
    expect(ask).toHaveBeenCalledTimes(2);
    expect(result.current.result).toEqual(job(1));
    expect(result.current.pollError).toEqual(failure(500));
    // 2 s after the first failure, 4 s after the second.
    expect(await asksAfter(ask, [1999, 1])).toEqual([0, 1]);
    expect(result.current.pollError).toEqual(failure(503));
    expect(await asksAfter(ask, [3999, 1])).toEqual([0, 1]);
    expect(result.current.result).toEqual(job(2));
    expect(result.current.pollError).toBeNull();
    // A new answer: a second again.
    expect(await asksAfter(ask, [1000])).toEqual([1]);
  });

  it('shows a failed first answer, retries one that may pass, and stops on a lasting one', async () => {
    const ask = answering(failure(502), job(1));
    const { result } = poll(ask);
    await settle();
    expect(result.current.result).toEqual(failure(502));
    await tick(2000);
    expect(result.current.result).toEqual(job(1));

    const refused = answering(failure(403));
    const other = poll(refused);
    await settle();
    expect(other.result.current.result).toEqual(failure(403));
    expect(await asksAfter(refused, [60_000])).toEqual([0]);
  });

  it('stops asking once a poll is refused for good, keeping the good answer', async () => {
    const ask = answering(job(1), failure(404));
    const { result } = poll(ask);
    await settle();
    await tick(1000);
    expect(result.current.result).toEqual(job(1));
    expect(result.current.pollError).toEqual(failure(404));
    expect(await asksAfter(ask, [60_000])).toEqual([0]);
  });

  it('drops an answer to an older key, and starts the new key over', async () => {
    const s = server();
    const { result, rerender } = poll(s.ask);
    await settle();
    expect(s.waiting()).toBe(1);
    rerender({ k: 'b' });
    expect(result.current.result).toBeNull();
    await settle();
    expect(s.ask).toHaveBeenCalledTimes(2);
    await s.answer(job(1, false, 'a')); // the old key's answer
    expect(result.current.result).toBeNull();
    await s.answer(job(5, false, 'b'));
    expect(result.current.result).toEqual(job(5, false, 'b'));

    // Only the new key is followed.
    expect(await asksAfter(s.ask, [1000])).toEqual([1]);

    // And when the old key's answer comes last, it changes nothing either.
    rerender({ k: 'c' });
    await settle();
    await s.answer(job(7, false, 'c'), 1);
    await s.answer(job(2, false, 'b'));
    expect(result.current.result).toEqual(job(7, false, 'c'));
  });

  it('drops an answer asked for before a local change, and follows the changed data', async () => {
    const s = server();
    const { result } = poll(s.ask);
    await settle();
    await s.answer(job(1, true));
    expect(await asksAfter(s.ask, [5000])).toEqual([0]);

    // A change made here (a job just started) makes it worth following again.
    act(() => result.current.update((j) => ({ ...j, done: 0, finished: false, id: 'new' })));
    expect(result.current.result).toEqual(job(0, false, 'new'));
    await tick(1000);
    expect(s.waiting()).toBe(1);
    act(() => result.current.update((j) => ({ ...j, done: 10 })));
    // However long that request takes, nothing else is asked meanwhile.
    await tick(5000);
    expect(s.ask).toHaveBeenCalledTimes(2);
    // Asked for before the change: dropped; the next ask waits its second.
    await s.answer(job(0, false, 'new'));
    expect(result.current.result).toEqual(job(10, false, 'new'));
    expect(s.waiting()).toBe(0);
    await tick(1000);
    expect(s.waiting()).toBe(1);
    await s.answer(job(20, false, 'new'));
    expect(result.current.result).toEqual(job(20, false, 'new'));
  });

  it('never has two requests on their way: a refresh during one is sent after it', async () => {
    const s = server();
    const { result } = poll(s.ask);
    await settle();
    act(() => result.current.refresh());
    act(() => result.current.refresh());
    await settle();
    expect(s.waiting()).toBe(1);
    // The answer asked for before the refresh is dropped, and the refresh goes out.
    await s.answer(job(1));
    expect(result.current.result).toBeNull();
    expect(s.waiting()).toBe(1);
    expect(s.ask).toHaveBeenCalledTimes(2);
    await s.answer(job(2));
    expect(result.current.result).toEqual(job(2));
    // Timers wait for answers: a slow server is never asked twice at once.
    await tick(1000);
    await tick(30_000);
    expect(s.waiting()).toBe(1);
    expect(s.ask).toHaveBeenCalledTimes(3);
  });

  it('asks again on refresh after it was done, and follows what that brings', async () => {
    const ask = answering(job(1, true), job(2), job(3), job(4, true));
    const { result } = poll(ask);
    await settle();
    expect(await asksAfter(ask, [10_000])).toEqual([0]);
    act(() => result.current.refresh());
    await settle();
    expect(result.current.result).toEqual(job(2));
    expect(await asksAfter(ask, [1000, 1000, 10_000])).toEqual([1, 1, 0]);
  });

  it('stops when the component goes, and ignores the answer that was on its way', async () => {
    const s = server();
    const { result, unmount } = poll(s.ask);
    await settle();
    await s.answer(job(1));
    await tick(1000);
    expect(s.waiting()).toBe(1);
    const shown = result.current;
    unmount();
    await s.answer(job(2));
    expect(result.current).toBe(shown);
    await tick(60_000);
    expect(s.ask).toHaveBeenCalledTimes(2);
  });

  it('shows what the page has at once, and asks after the first wait', async () => {
    const ask = answering(job(2, true));
    const { result } = renderHook(() =>
      usePolledResult('a', ask, { done, initial: { id: 'a', done: 1, finished: false } }),
    );
    expect(result.current.result).toEqual(job(1));
    await settle();
    expect(ask).not.toHaveBeenCalled();
    await tick(1000);
    expect(result.current.result).toEqual(job(2, true));

    // Already done: never asked.
    const idle = answering(job(9));
    renderHook(() =>
      usePolledResult('b', idle, { done, initial: { id: 'b', done: 1, finished: true } }),
    );
    await tick(60_000);
    expect(idle).not.toHaveBeenCalled();
  });

  it('asks nothing for a null key, and starts over on reload', async () => {
    const ask = answering(failure(403), job(1, true));
    const { result, rerender } = poll(ask, {}, null);
    await tick(10_000);
    expect(ask).not.toHaveBeenCalled();
    expect(result.current.result).toBeNull();

    rerender({ k: 'a' });
    await settle();
    expect(result.current.result).toEqual(failure(403));
    act(() => result.current.reload());
    expect(result.current.result).toBeNull();
    await settle();
    expect(result.current.result).toEqual(job(1, true));
    expect(ask).toHaveBeenCalledTimes(2);
  });

  it('counts 4xx refusals as lasting, and time-outs, rate limits, 5xx and network failures not', () => {
    const lasting = (status: number) => isLasting(failure(status) as never);
    expect([400, 403, 404, 409].map(lasting)).toEqual([true, true, true, true]);
    expect([408, 429, 500, 503].map(lasting)).toEqual([false, false, false, false]);
    expect(isLasting({ ok: false, kind: 'network', message: '' })).toBe(false);
  });
});
