import { toCount, toList, toText } from './numbers';
import { toPlace } from './places';
import type { BrandScansData } from './store/brandscans-slice';

export type { BrandScansData };

/** Reads the answer's `data` without trusting it: missing lists are empty, numbers default to 0. */
export function toBrandScans(data: unknown): BrandScansData {
  const raw = (typeof data === 'object' && data !== null ? data : {}) as Record<string, unknown>;
  return {
    scan: toList(raw.scan)
      .map((s) => ({
        id: toText(s.id),
        productId: toText(s.product_id),
        scanCount: toCount(s.scan_count),
        consumers: toCount(s.consumers),
        suspicious: s.suspicious === true,
      }))
      .sort((a, b) => b.scanCount - a.scanCount),
    locations: toList(raw.locations).map((l) => toPlace(l, 'count')),
    productScans: toList(raw.product_scans).map((p) => ({
      productId: toText(p.product_id),
      sum: toCount(p.sum),
    })),
    totalQrGenerated: toList(raw.total_qr_generated).map((q) => ({
      productId: toText(q.product_id),
      count: toCount(q.count),
    })),
    qrCodesRemaining: toCount(raw.qr_codes_remaining),
  };
}

/** Every code generated, over all products. */
export function totalGenerated(data: BrandScansData): number {
  return data.totalQrGenerated.reduce((sum, q) => sum + q.count, 0);
}
