import { checkDigitOk } from '@/lib/gs1';
import type { JourneyEvent } from './api/journey-api';

const STEP_TITLES: Record<string, string> = {
  commissioning: 'Codes commissioned',
  packing: 'Packed',
  shipping: 'Shipped',
  receiving: 'Received',
  departing: 'Departed',
  arriving: 'Arrived',
  accepting: 'Accepted',
  unpacking: 'Unpacked',
  decommissioning: 'Decommissioned',
  retail_selling: 'Sold',
};

/** What happened, in words: the CBV step's title, or the event type. */
export function stepTitle(event: JourneyEvent): string {
  const step = event.biz_step ?? '';
  if (STEP_TITLES[step]) return STEP_TITLES[step];
  if (event.event_type === 'TransformationEvent') return 'Transformed';
  if (step) return step.replace(/^.*[/:-]/, '').replace(/_/g, ' ');
  return event.event_type;
}

/** A GS1 identifier as people read it: the kind and the number. */
export function identifierLabel(id: string): string {
  const dl = /^https?:\/\/[^/]+\/(?:.*\/)?(00|01|414)\/([0-9]+)(.*)$/.exec(id);
  if (dl) {
    const [, ai, number, rest] = dl;
    if (ai === '00') return `SSCC ${number}`;
    if (ai === '414') {
      const ext = /^\/254\/(.+)$/.exec(rest ?? '');
      return `GLN ${number}${ext ? ` (${ext[1]})` : ''}`;
    }
    const lot = /\/10\/([^/]+)/.exec(rest ?? '');
    const serial = /\/21\/([^/]+)/.exec(rest ?? '');
    return [
      `GTIN ${number}`,
      lot ? `lot ${decodeURIComponent(lot[1] ?? '')}` : '',
      serial ? `serial ${decodeURIComponent(serial[1] ?? '')}` : '',
    ]
      .filter(Boolean)
      .join(', ');
  }
  const sgln = /^urn:epc:id:sgln:([0-9]+)\.([0-9]*)\.(.+)$/.exec(id);
  if (sgln) return `SGLN ${sgln[1]}.${sgln[2]}${sgln[3] === '0' ? '' : ` (${sgln[3]})`}`;
  return id;
}

function count(n: number | undefined): string {
  return n === undefined ? '' : `${new Intl.NumberFormat('en').format(n)} × `;
}

/** What the event is about: its classes with quantities, or its instances. */
export function whatLabel(event: JourneyEvent): string {
  const parts = event.quantities.map((q) => `${count(q.quantity)}${identifierLabel(q.epc_class)}`);
  const shown = event.epcs.slice(0, 3).map(identifierLabel);
  if (shown.length) {
    const more = event.epc_count - shown.length;
    parts.push(shown.join(', ') + (more > 0 ? ` and ${more} more` : ''));
  }
  if (event.inputs.length)
    parts.push(`from ${event.inputs.slice(0, 3).map(identifierLabel).join(', ')}`);
  if (event.outputs.length)
    parts.push(`into ${event.outputs.slice(0, 3).map(identifierLabel).join(', ')}`);
  return parts.join('; ');
}

/** Where: the business location, else the read point. */
export function whereLabel(event: JourneyEvent): string {
  const where = event.biz_location ?? event.read_point;
  return where ? identifierLabel(where) : '';
}

/** A time as the journey shows it (UTC, to the minute). */
export function formatWhen(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** The record-step form's values, as typed. */
export interface StepFormValues extends Record<string, string> {
  step: string;
  lot: string;
  quantity: string;
  container: string;
  location: string;
  destination: string;
}

export const emptyStepForm: StepFormValues = {
  step: 'packing',
  lot: '',
  quantity: '',
  container: '',
  location: '',
  destination: '',
};

function locationError(value: string, required: boolean): string | undefined {
  const v = value.trim();
  if (!v) return required ? 'Give the location: its GLN (13 digits).' : undefined;
  const gln = /^[0-9]{13}$/.test(v) ? v : /^https:\/\/id\.gs1\.org\/414\/([0-9]{13})/.exec(v)?.[1];
  if (gln) return checkDigitOk(gln) ? undefined : 'This GLN has a wrong check digit.';
  if (v.startsWith('urn:epc:id:sgln:')) return undefined;
  return 'A GLN is 13 digits (or https://id.gs1.org/414/… or urn:epc:id:sgln:…).';
}

/** What the server would refuse, found before sending. */
export function validateStepForm(v: StepFormValues): Partial<Record<keyof StepFormValues, string>> {
  const errors: Partial<Record<keyof StepFormValues, string>> = {};
  const container = v.container.trim();
  if (v.step === 'packing' && !container)
    errors.container = 'Give the SSCC of the case or pallet the units go into.';
  else if (container && !/^[0-9]{18}$/.test(container)) errors.container = 'An SSCC is 18 digits.';
  else if (container && !checkDigitOk(container))
    errors.container = 'This SSCC has a wrong check digit.';
  const quantity = v.quantity.trim();
  if (quantity && !/^[1-9][0-9]{0,7}$/.test(quantity))
    errors.quantity = 'A whole number of units, 1 or more.';
  const location = locationError(v.location, true);
  if (location) errors.location = location;
  if (v.step === 'shipping') {
    const destination = locationError(v.destination, false);
    if (destination) errors.destination = destination;
  }
  return errors;
}
