import type { JourneyEvent, ProductJourney, Traceability } from './api/journey-api';

const product = {
  id: 'p1',
  product_name: 'Tea <b>green</b>',
  skuid: 'TEA-1',
  gtin: '09506000134352',
};

export function journeyEvent(overrides: Partial<JourneyEvent> = {}): JourneyEvent {
  return {
    event_id: 'urn:uuid:00000000-0000-4000-8000-000000000001',
    event_type: 'ObjectEvent',
    action: 'ADD',
    event_time: '2026-01-01T10:00:00Z',
    event_time_zone_offset: '+00:00',
    record_time: '2026-01-01T10:00:00Z',
    biz_step: 'commissioning',
    disposition: 'active',
    epcs: [],
    epc_count: 0,
    quantities: [{ epc_class: 'https://id.gs1.org/01/09506000134352/10/L1', quantity: 500 }],
    inputs: [],
    outputs: [],
    destinations: [],
    source: 'codes',
    code_job_id: 'j1',
    ...overrides,
  };
}

export const shippingEvent = journeyEvent({
  event_id: 'urn:uuid:00000000-0000-4000-8000-000000000002',
  action: 'OBSERVE',
  event_time: '2026-01-03T10:00:00Z',
  biz_step: 'shipping',
  disposition: 'in_transit',
  epcs: ['https://id.gs1.org/00/106141412345678908'],
  epc_count: 1,
  quantities: [],
  biz_location: 'https://id.gs1.org/414/9506000134352',
  destinations: ['https://id.gs1.org/414/4000001000005'],
  source: 'recorded',
  code_job_id: undefined,
});

export const sampleJourney: ProductJourney = {
  product,
  truncated: false,
  steps: [
    { kind: 'event', at: '2026-01-01T10:00:00Z', event: journeyEvent() },
    { kind: 'event', at: '2026-01-03T10:00:00Z', event: shippingEvent },
    {
      kind: 'observation',
      at: '2026-01-04T23:59:59.999Z',
      observation: {
        day: '2026-01-04',
        country: 'DE',
        country_name: 'Germany',
        scans: 3,
        first_scans: 2,
        genuine: 3,
        suspicious: 0,
        not_recognised: 0,
      },
    },
  ],
};

export const sampleTraceability: Traceability = {
  product,
  lots: ['L1'],
  scans: 3,
  truncated: false,
  upstream: { commissioned: [journeyEvent()], transformed_from: [] },
  downstream: {
    containers: ['https://id.gs1.org/00/106141412345678908'],
    packed_into: [],
    shipped: [shippingEvent],
    received: [],
    transformed_into: [],
  },
};
