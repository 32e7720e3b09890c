import { daysOf, type DateRange } from './date-range';
import { toCount, toList, toText } from './numbers';
import { toPlace, type Place } from './places';

export interface ScanTotals {
  scans: number;
  firstScans: number;
  repeatScans: number;
  genuine: number;
  suspicious: number;
  notRecognised: number;
  /** Requests from bots, left out of every other figure. */
  bots: number;
}

export interface DayScans {
  day: string;
  scans: number;
  firstScans: number;
  repeatScans: number;
  suspicious: number;
  notRecognised: number;
}

export interface ProductScans {
  productId: string;
  productName: string;
  skuid: string;
  scans: number;
}

/** The dashboard's analytics for a range (`GET /api/scan-analytics`), every number coerced (spec §9). */
export interface ScanAnalyticsData {
  range: DateRange;
  totals: ScanTotals;
  /** Every day of the range, days without scans included (as 0). */
  byDay: DayScans[];
  /** Most scanned first. */
  byProduct: ProductScans[];
  /** Most scanned first. */
  byPlace: Place[];
}

function toDay(raw: Record<string, unknown>): DayScans {
  return {
    day: toText(raw.day).slice(0, 10),
    scans: toCount(raw.scans),
    firstScans: toCount(raw.first_scans),
    repeatScans: toCount(raw.repeat_scans),
    suspicious: toCount(raw.suspicious),
    notRecognised: toCount(raw.not_recognised),
  };
}

const noScans = (day: string): DayScans => ({
  day,
  scans: 0,
  firstScans: 0,
  repeatScans: 0,
  suspicious: 0,
  notRecognised: 0,
});

/** Reads the answer without trusting it; `asked` is the range used when it names none. */
export function toScanAnalytics(body: unknown, asked: DateRange): ScanAnalyticsData {
  const raw = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const totals = (
    typeof raw.totals === 'object' && raw.totals !== null ? raw.totals : {}
  ) as Record<string, unknown>;
  const range: DateRange = {
    from: toText(raw.from) || asked.from,
    to: toText(raw.to) || asked.to,
  };
  const reported = new Map(toList(raw.by_day).map((d) => [toDay(d).day, toDay(d)]));
  const days = daysOf(range);
  const byDay = days.length
    ? days.map((day) => reported.get(day) ?? noScans(day))
    : [...reported.values()].sort((a, b) => a.day.localeCompare(b.day));
  return {
    range,
    totals: {
      scans: toCount(totals.scans),
      firstScans: toCount(totals.first_scans),
      repeatScans: toCount(totals.repeat_scans),
      genuine: toCount(totals.genuine),
      suspicious: toCount(totals.suspicious),
      notRecognised: toCount(totals.not_recognised),
      bots: toCount(totals.bots),
    },
    byDay,
    byProduct: toList(raw.by_product)
      .map((p) => ({
        productId: toText(p.product_id),
        productName: toText(p.product_name),
        skuid: toText(p.skuid),
        scans: toCount(p.scans),
      }))
      .sort((a, b) => b.scans - a.scans),
    byPlace: toList(raw.by_place)
      .map((p) => toPlace(p, 'scans'))
      .sort((a, b) => b.scans - a.scans),
  };
}
