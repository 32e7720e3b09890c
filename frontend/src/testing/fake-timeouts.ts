import { act } from '@testing-library/react';
import { vi } from 'vitest';

/**
 * Tests of pages that poll or wait (progress, a delayed count) fake
 * `setTimeout` only. Testing Library's `findBy…`, `waitFor` and user-event
 * would then wait on a faked timer, so these tests let answers arrive by
 * running real macrotasks (`settle`), move the faked clock on (`tick`),
 * and read the page synchronously.
 */

/** The real `setTimeout`, kept before any test fakes it. */
const realSetTimeout = globalThis.setTimeout;

/** Fakes `setTimeout` and `clearTimeout` (promises and dates stay real). */
export function fakeTimeouts() {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
}

/** Lets the answers already on their way arrive, and React render them. */
export async function settle() {
  for (let i = 0; i < 10; i += 1) {
    await act(() => new Promise<void>((resolve) => realSetTimeout(resolve, 0)));
  }
}

/** Moves the faked clock on by `ms`, then lets what it started arrive. */
export async function tick(ms: number) {
  await act(() => vi.advanceTimersByTimeAsync(ms));
  await settle();
}
