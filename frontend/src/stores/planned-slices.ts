import { initialRequestState, type RequestState } from '@/lib/slice';

/**
 * The slices of modules a later issue builds (spec §3). They hold `unknown`
 * data until that module's endpoint exists in openapi.yaml, and never made-up
 * data. When a module is built, its slice moves to its feature's `store/`
 * folder and `app-store.ts` composes it from there.
 */
export interface PlannedSlices {
  orders: RequestState<unknown>;
}

export function initialPlannedSlices(): PlannedSlices {
  return {
    orders: initialRequestState<unknown>(null),
  };
}
