import { initialRequestState, type RequestState } from '@/lib/slice';
import type { ResponseBody } from '@/lib/api/types';

/** The spec's product journey (§7 `GET product-journey?skuid=`), as the contract types it. */
export type ProductJourney = ResponseBody<'/api/product-journey', 'get', 200>;
/** The spec's traceability (§7 `GET traceability?skuid=`). */
export type Traceability = ResponseBody<'/api/traceability', 'get', 200>;

/**
 * The spec's `productJourney` and `traceability` slices (§3, keyed by skuid):
 * the journey and the traceability of the product last asked for. Both clear
 * their data when a load starts (§4), so a page never shows one product's
 * journey under another's name.
 */
export interface JourneySlices {
  productJourney: RequestState<ProductJourney | null>;
  traceability: RequestState<Traceability | null>;
}

/** The slices that drop their data when a load starts (spec §4). */
export const JOURNEY_SLICES_CLEARED_ON_LOAD: readonly (keyof JourneySlices)[] = [
  'productJourney',
  'traceability',
];

export function initialJourneySlices(): JourneySlices {
  return {
    productJourney: initialRequestState<ProductJourney | null>(null),
    traceability: initialRequestState<Traceability | null>(null),
  };
}
