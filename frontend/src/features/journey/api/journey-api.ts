import { callApi, type ApiResult } from '@/lib/api/call-api';
import type { RequestBody } from '@/lib/api/types';
import { useAppStore } from '@/stores/app-store';
import { failureStatus, journeyMessages } from '../messages';

import type { ProductJourney } from '../store/journey-slices';

export type { ProductJourney, Traceability } from '../store/journey-slices';
export type JourneyStep = ProductJourney['steps'][number];
export type JourneyEvent = NonNullable<JourneyStep['event']>;
export type ScanObservation = NonNullable<JourneyStep['observation']>;
export type RecordStepBody = RequestBody<'/api/epcis/steps', 'post'>;
export type StepKind = RecordStepBody['step'];

let latestJourney = 0;
let latestTraceability = 0;

/**
 * Loads the product journey of `skuid` into the `productJourney` slice (spec
 * §7). The slice's data is cleared when the load starts (§4); a failure keeps
 * the spec's message (§8). Only the latest load's answer is kept.
 */
export async function loadProductJourney(skuid: string): Promise<void> {
  const { startLoading, loadSucceeded, loadFailed } = useAppStore.getState();
  const request = ++latestJourney;
  startLoading('productJourney');
  const result = await callApi((api) =>
    api.GET('/api/product-journey', { params: { query: { skuid } } }),
  );
  if (request !== latestJourney) return;
  if (result.ok) loadSucceeded('productJourney', result.data);
  else loadFailed('productJourney', journeyMessages.journeyFailed(failureStatus(result)));
}

/** Loads the traceability of `skuid` into the `traceability` slice, as the journey. */
export async function loadTraceability(skuid: string): Promise<void> {
  const { startLoading, loadSucceeded, loadFailed } = useAppStore.getState();
  const request = ++latestTraceability;
  startLoading('traceability');
  const result = await callApi((api) =>
    api.GET('/api/traceability', { params: { query: { skuid } } }),
  );
  if (request !== latestTraceability) return;
  if (result.ok) loadSucceeded('traceability', result.data);
  else loadFailed('traceability', journeyMessages.traceabilityFailed(failureStatus(result)));
}

/** Records a packing, shipping or receiving step (201: the event stored). */
export function recordStep(body: RecordStepBody): Promise<ApiResult<JourneyEvent>> {
  return callApi((api) => api.POST('/api/epcis/steps', { body }), journeyMessages.notRecorded);
}
