import type { AdminScan } from './store/admin-scans-slice';

export type { AdminScan };

const text = (value: unknown): string =>
  typeof value === 'string' ? value : value === null || value === undefined ? '' : String(value);

/** Reads the list of `GET /api/admin/scans` without trusting it: every field a string, '' when missing. */
export function toAdminScans(body: unknown): AdminScan[] {
  if (!Array.isArray(body)) return [];
  return body
    .filter((item): item is Record<string, unknown> => typeof item === 'object' && item !== null)
    .map((raw) => {
      const geo = (
        typeof raw.Geolocation === 'object' && raw.Geolocation !== null ? raw.Geolocation : {}
      ) as Record<string, unknown>;
      return {
        id: text(raw.id),
        brandId: text(raw.BrandId),
        brandName: text(raw.BrandName),
        scannedAt: text(raw.scanned_at),
        verdict: text(raw.verdict),
        productName: text(raw.product_name),
        geolocation: {
          loc: text(geo.loc),
          country: text(geo.country),
          city: text(geo.city),
          region: text(geo.region),
        },
      };
    });
}
