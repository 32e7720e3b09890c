import { initialRequestState, type RequestState, type SetSlice } from '@/lib/slice';

/**
 * The slices of modules a later issue builds (spec §3). They hold `unknown`
 * data until that module's endpoint exists in openapi.yaml, and never made-up
 * data. When a module is built, its slice moves to its feature's `store/`
 * folder and `app-store.ts` composes it from there.
 */
export interface PlannedSlices {
  brandscans: RequestState<unknown>;
  reviews: RequestState<unknown>;
  productJourney: RequestState<unknown>;
  traceability: RequestState<unknown>;
  adminScans: RequestState<unknown> & { activeBrandId: string | null };
  orders: RequestState<unknown>;
  sessions: RequestState<unknown>;
}

export interface PlannedActions {
  setActiveBrandId: (brandId: string | null) => void;
}

/** Slices that show one key's data at a time and clear it when a new load starts. */
export const CLEARED_ON_LOAD: ReadonlySet<keyof PlannedSlices> = new Set([
  'productJourney',
  'traceability',
]);

export function initialPlannedSlices(): PlannedSlices {
  return {
    brandscans: initialRequestState<unknown>(null),
    reviews: initialRequestState<unknown>(null),
    productJourney: initialRequestState<unknown>(null),
    traceability: initialRequestState<unknown>(null),
    adminScans: { ...initialRequestState<unknown>(null), activeBrandId: null },
    orders: initialRequestState<unknown>(null),
    sessions: initialRequestState<unknown>(null),
  };
}

export function plannedActions(set: SetSlice<PlannedSlices>): PlannedActions {
  return {
    setActiveBrandId: (brandId) =>
      set((s) => ({ adminScans: { ...s.adminScans, activeBrandId: brandId } })),
  };
}
