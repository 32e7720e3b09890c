import { initialRequestState, type RequestState } from '@/lib/slice';

/**
 * The slices of modules a later issue builds (spec §3). They hold `unknown`
 * data until that module's endpoint exists in openapi.yaml, and never made-up
 * data. When a module is built, its slice moves to its feature's `store/`
 * folder and `app-store.ts` composes it from there.
 */
export interface PlannedSlices {
  productJourney: RequestState<unknown>;
  traceability: RequestState<unknown>;
  orders: RequestState<unknown>;
}

/** Slices that show one key's data at a time and clear it when a new load starts. */
export const CLEARED_ON_LOAD: ReadonlySet<keyof PlannedSlices> = new Set([
  'productJourney',
  'traceability',
]);

export function initialPlannedSlices(): PlannedSlices {
  return {
    productJourney: initialRequestState<unknown>(null),
    traceability: initialRequestState<unknown>(null),
    orders: initialRequestState<unknown>(null),
  };
}
