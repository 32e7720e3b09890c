import { placeLabel } from './places';
import { toCount, toList, toText } from './numbers';

/** One scan of a code, as its history shows it. */
export interface CodeScan {
  /** The scan's place in the list (the rows' key). */
  key: string;
  scannedAt: string;
  verdict: string;
  firstScan: boolean;
  consumerFirst: boolean;
  /** "Consumer 2": the second consumer who scanned the code, never their id. */
  consumer: string;
  place: string;
  /** `ip`, `browser` or `none`. */
  locationSource: string;
}

/** A scanned code and its scans, newest first (`GET /api/code-scans/{id}`). */
export interface CodeHistory {
  id: string;
  productName: string;
  scanCount: number;
  consumers: number;
  suspicious: boolean;
  scans: CodeScan[];
}

/** Reads the answer without trusting it: missing lists are empty, numbers default to 0. */
export function toCodeHistory(data: unknown): CodeHistory {
  const raw = (typeof data === 'object' && data !== null ? data : {}) as Record<string, unknown>;
  return {
    id: toText(raw.id),
    productName: toText(raw.product_name),
    scanCount: toCount(raw.scan_count),
    consumers: toCount(raw.consumers),
    suspicious: raw.suspicious === true,
    scans: toList(raw.scans).map((s, i) => ({
      key: String(i),
      scannedAt: toText(s.scanned_at),
      verdict: toText(s.verdict),
      firstScan: s.first_scan === true,
      consumerFirst: s.consumer_first === true,
      consumer: toText(s.consumer),
      place: placeLabel({
        country: toText(s.country),
        countryName: toText(s.country_name),
        region: toText(s.region),
        city: toText(s.city),
      }),
      locationSource: toText(s.location_source),
    })),
  };
}

/** First or repeat, as a person reads it: the code's first scan, a new consumer, or a repeat. */
export function scanKind(scan: Pick<CodeScan, 'firstScan' | 'consumerFirst'>): string {
  if (scan.firstScan) return 'First scan';
  return scan.consumerFirst ? 'First by this consumer' : 'Repeat by this consumer';
}

const VERDICTS: Record<string, string> = {
  genuine: 'Genuine',
  suspicious: 'Suspicious',
  not_recognised: 'Not recognised',
};

export function verdictLabel(verdict: string): string {
  return VERDICTS[verdict] ?? verdict;
}

/** Where the place came from, for the place's cell. */
export function placeSource(source: string): string {
  if (source === 'browser') return 'shared by the consumer';
  if (source === 'ip') return 'from the network address';
  return '';
}
