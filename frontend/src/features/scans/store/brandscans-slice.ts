import { initialRequestState, type RequestState } from '@/lib/slice';

/** Scans at one place; empty strings where the place is not known. */
export interface Place {
  country: string;
  countryName: string;
  region: string;
  city: string;
  /** Null when the server had no coordinates for the place. */
  lat: number | null;
  lon: number | null;
  scans: number;
}

/** One of the most-scanned codes. */
export interface ScannedCode {
  id: string;
  productId: string;
  scanCount: number;
  /** Distinct consumers who scanned it. */
  consumers: number;
  /** Suspicious under the organisation's rules: it may have been copied. */
  suspicious: boolean;
}

/**
 * The brand's scans (spec §3 "Brand scan record", §7 `GET /brand-scans`) as
 * the page keeps them, every number coerced (spec §9; `features/scans/brand-scans.ts`).
 */
export interface BrandScansData {
  /** The most-scanned codes, most scanned first. */
  scan: ScannedCode[];
  locations: Place[];
  productScans: { productId: string; sum: number }[];
  totalQrGenerated: { productId: string; count: number }[];
  qrCodesRemaining: number;
}

export interface BrandScansSlice {
  /** The brand's scans for the range last asked for; null until one load succeeded. */
  brandscans: RequestState<BrandScansData | null>;
}

export function initialBrandScansSlice(): BrandScansSlice {
  return { brandscans: initialRequestState<BrandScansData | null>(null) };
}
