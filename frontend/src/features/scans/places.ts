import { toCoordinate, toCount, toText } from './numbers';
import type { Place } from './store/brandscans-slice';

export type { Place };

/** Reads one place of the server's answer (`count` in brand-scans, `scans` in scan-analytics). */
export function toPlace(raw: Record<string, unknown>, countKey: 'count' | 'scans'): Place {
  return {
    country: toText(raw.country),
    countryName: toText(raw.country_name),
    region: toText(raw.region),
    city: toText(raw.city),
    lat: toCoordinate(raw.lat),
    lon: toCoordinate(raw.lon),
    scans: toCount(raw[countKey]),
  };
}

export const UNKNOWN_PLACE = 'Unknown';

/** The country as people read it: its name, else its code, else "Unknown". */
export function countryLabel(place: Pick<Place, 'country' | 'countryName'>): string {
  return place.countryName || place.country || UNKNOWN_PLACE;
}

/** "Mumbai, Maharashtra, India", leaving out what is not known; "Unknown" when nothing is. */
export function placeLabel(
  place: Pick<Place, 'country' | 'countryName' | 'region' | 'city'>,
): string {
  const parts = [place.city, place.region, place.countryName || place.country].filter(Boolean);
  return parts.length ? parts.join(', ') : UNKNOWN_PLACE;
}

/** Places with coordinates, which the map can show. */
export function mappable(places: readonly Place[]): (Place & { lat: number; lon: number })[] {
  return places.filter(
    (p): p is Place & { lat: number; lon: number } =>
      p.lat !== null && p.lon !== null && Math.abs(p.lat) <= 90 && Math.abs(p.lon) <= 180,
  );
}
